#!/usr/bin/env node
// pdesk entry: runs the esbuild bundle (dist/), built by `npm install` (prepare) or `npm run build`.
// Subcommands load only the CLI chunk; Ink and React are imported when the TUI starts. One-shot commands send
// through node:http and never load undici (src/cli/long-running.ts), so no V8 flag is needed to keep undici's
// WebAssembly parser from holding their exit (and a flag set at run time would cost more: V8 then rejects the
// code cache of node's own modules, +40 M instructions for `pdesk --help`).
const entry = new URL('../dist/main.js', import.meta.url);
let mod;
try {
  mod = await import(entry.href);
} catch (e) {
  if (e && e.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes('dist/main.js')) {
    process.stderr.write('pdesk: the build is missing: run `npm run build` (or `npm install`) in the pdesk folder.\n');
    process.exit(1);
  }
  throw e;
}
await mod.run(process.argv.slice(2));
