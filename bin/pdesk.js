#!/usr/bin/env node
// pdesk entry: runs the esbuild bundle (dist/), built by `npm install` (prepare) or `npm run build`.
// Subcommands load only the CLI chunk; Ink and React are imported when the TUI starts.
import { setFlagsFromString } from 'node:v8';

// A one-shot command would otherwise wait ~90 ms at exit for V8 to finish optimising undici's WebAssembly
// HTTP parser in the background (measured: bench/startup.mjs). Its baseline compile
// is plenty for a handful of requests. Long-running commands (bulk sends, listen, sandbox, the TUI) keep the
// optimised parser.
const args = process.argv.slice(2);
const longRunning = args.length === 0 || args.includes('--csv') || ['tui', 'listen', 'sandbox'].some((c) => args.includes(c));
if (!longRunning) setFlagsFromString('--liftoff-only');

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
await mod.run(args);
