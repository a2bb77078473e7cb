// Bundle src/ into dist/ with esbuild (DEVELOPERS.md, "Stack notes"):
// - dist/cli.cjs: one-shot commands, one CommonJS file that bin/pdesk.js compiles with a V8 code cache
//   (src/cli/boot.ts). It holds the CLI and the core only: the TUI, the sandbox, listen, bulk sends, undici and
//   conf are stubbed out, since the commands that use them run from the ESM build (src/cli/route.ts decides).
// - dist/main.js and dist/chunks/: the ESM build in split chunks for those commands, so Ink and React, the
//   sandbox and undici load only when used.
// - dist/boot.cjs: what bin/pdesk.js requires: picks the build and loads it.
// - dist/fixed.json: the output of `pdesk --help` and `pdesk --version`, which boot prints without the CLI.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { lazyChildProcess, lazyRgiEmoji, yogaWithoutFetch } from './build-patches.mjs';

const version = JSON.parse(readFileSync('package.json', 'utf8')).version;
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  define: { 'process.env.NODE_ENV': '"production"' },
  jsx: 'automatic',
  logLevel: 'warning',
  legalComments: 'none',
};

// Build into a fresh folder and swap it in, so a pdesk process running meanwhile never sees a half-written dist/.
const tmp = `dist.tmp-${process.pid}`;
await build({
  ...common,
  entryPoints: { main: 'src/cli/main.ts' },
  format: 'esm',
  splitting: true,
  outdir: tmp,
  chunkNames: 'chunks/[name]-[hash]',
  external: ['react-devtools-core'],
  plugins: [lazyChildProcess, yogaWithoutFetch, lazyRgiEmoji],
  banner: { js: "import{createRequire as __pdeskCreateRequire}from'module';const require=__pdeskCreateRequire(import.meta.url);" },
});

await build({ ...common, entryPoints: { boot: 'src/cli/boot.ts' }, format: 'cjs', outExtension: { '.js': '.cjs' }, outdir: tmp });

/** In dist/cli.cjs, what only the ESM build's commands load: a stub that says so if it is ever reached. */
const MAIN_BUILD_ONLY = /^(undici|ink|react|conf)$|\/(tui|sandbox|listen|core\/bulk)\//;
const oneShot = await build({
  ...common,
  entryPoints: ['src/cli/oneshot.ts'],
  format: 'cjs',
  write: false,
  outfile: `${tmp}/cli.cjs`,
  plugins: [
    lazyChildProcess,
    {
      name: 'main-build-only',
      setup(b) {
        b.onResolve({ filter: MAIN_BUILD_ONLY }, (a) =>
          a.importer.includes('node_modules') ? undefined : { path: a.path, namespace: 'main-build-only' },
        );
        // Importing the stub is harmless (a static import of it must not break every one-shot command); using
        // anything from it throws, naming the module and where the routing is decided.
        b.onLoad({ filter: /.*/, namespace: 'main-build-only' }, (a) => ({
          contents: `const message = ${JSON.stringify(`pdesk: ${a.path} belongs to the ESM build (dist/main.js); this command line should not have reached dist/cli.cjs (src/cli/route.ts).`)};
module.exports = new Proxy({}, { get(_, key) { if (key === '__esModule' || typeof key === 'symbol') return undefined; throw new Error(message); } });`,
          loader: 'js',
        }));
      },
    },
    {
      // `await import('node:fs')` in a command: vm.Script has no module loader, so it becomes a require().
      name: 'builtin-dynamic-imports',
      setup(b) {
        b.onResolve({ filter: /^node:/ }, (a) => (a.kind === 'dynamic-import' ? { path: a.path, namespace: 'builtin' } : undefined));
        b.onLoad({ filter: /.*/, namespace: 'builtin' }, (a) => ({
          contents: `module.exports = require(${JSON.stringify(a.path)});`,
          loader: 'js',
        }));
      },
    },
  ],
});
const code = oneShot.outputFiles[0].text;
if (/\bimport\(/.test(code)) throw new Error('dist/cli.cjs must not import(): vm.Script has no module loader for it');
// The first line names the build, which keys the code cache (V8 itself only checks the source's length).
const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
writeFileSync(`${tmp}/cli.cjs`, `// pdesk ${version} ${hash}\n${code}`);

// `pdesk --help` and `pdesk --version` printed by the build itself, for boot to print without loading the CLI
// (src/cli/boot.ts, fixedOutput): the root help of a plain, non-terminal stdout, as commander prints it.
const plainEnv = { ...process.env, PDESK_CODE_CACHE: '0' };
for (const k of ['FORCE_COLOR', 'CLICOLOR_FORCE', 'NO_COLOR', 'COLUMNS']) delete plainEnv[k];
const printed = (args) => {
  const boot = JSON.stringify(`${process.cwd()}/${tmp}/boot.cjs`);
  const r = spawnSync(
    process.execPath,
    ['-e', `require(${boot}).main(${JSON.stringify(args)}, ${JSON.stringify(`${process.cwd()}/${tmp}`)})`],
    {
      env: plainEnv,
      encoding: 'utf8',
    },
  );
  if (r.status !== 0 || !r.stdout) throw new Error(`pdesk ${args.join(' ')} failed while building: ${r.stderr}`);
  return r.stdout;
};
writeFileSync(
  `${tmp}/fixed.json`,
  JSON.stringify({ help: printed(['--help', '--no-color']), version: printed(['--version', '--no-color']) }),
);

rmSync(`dist.old-${process.pid}`, { recursive: true, force: true });
try {
  renameSync('dist', `dist.old-${process.pid}`);
} catch {
  /* first build */
}
renameSync(tmp, 'dist');
rmSync(`dist.old-${process.pid}`, { recursive: true, force: true });
