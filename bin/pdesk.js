#!/usr/bin/env node
// pdesk entry: runs the esbuild bundle (dist/), built by `npm install` (prepare) or `npm run build`.
// dist/boot.cjs picks the build for the command line (src/cli/route.ts, src/cli/boot.ts): one-shot commands run
// from dist/cli.cjs and the TUI from dist/tui.cjs, each with a V8 code cache; the other long-running commands
// import dist/main.js, whose split chunks load the sandbox, the receiver and undici only when used. This file
// is CommonJS (bin/package.json): node then starts without its ES module loader, which a one-shot command never
// needs.
const { join } = require('node:path');

const dist = join(__dirname, '..', 'dist');
let boot;
try {
  boot = require(join(dist, 'boot.cjs'));
} catch (e) {
  if (e && e.code === 'MODULE_NOT_FOUND' && String(e.message).includes('boot.cjs')) {
    process.stderr.write('pdesk: the build is missing: run `npm run build` (or `npm install`) in the pdesk folder.\n');
    process.exit(1);
  }
  throw e;
}
boot.main(process.argv.slice(2), dist).catch((e) => {
  process.stderr.write(`pdesk: unexpected error: ${e?.stack ?? e}\n`);
  process.exit(1);
});
