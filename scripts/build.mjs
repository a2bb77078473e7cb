// Bundle src/ into dist/ with esbuild (DEVELOPERS.md, "Stack notes"); src/cli/route.ts decides which runs a
// command line. Two CommonJS bundles, each one file that bin/pdesk.js compiles through vm.Script with a V8 code
// cache (src/cli/boot.ts; Node 20 has no compile cache for ES modules, and compiling was the largest part of
// every start):
// - dist/cli.cjs: one-shot commands. The CLI and the core (the team store's driver included, evaluated only when a
//   team store is configured): the TUI, the sandbox, listen, bulk sends, undici and conf are stubbed out, since the
//   commands that use them run from the other builds. Its clients send through node:http (src/cli/oneshot.ts).
// - dist/tui.cjs: everything, for `pdesk tui` (which runs the sandbox and the receiver in-process too).
// In both, what is imported with `import()` (each command's module, src/cli/verb.ts; the TUI) is evaluated when first
// used: esbuild wraps it in a function.
// And the ESM build in split chunks, dist/main.js and dist/chunks/, for the other long-running commands (bulk
// sends, listen, the sandbox, check, doctor) and profile writes: a process holds only the chunks it loads, where a
// bundle of everything would hold all of them for the whole run (docs/performance.md).
// - dist/boot.cjs: what bin/pdesk.js requires: picks the build and loads it.
// - dist/fixed.json: the output of `pdesk --help` and `pdesk --version`, which boot prints without the CLI.
// - dist/THIRD-PARTY-NOTICES.txt: the licence of every package the bundles carry. The bundles are self-contained
//   (the installed package has no runtime dependencies: README, "Dependencies"), so the notices travel with them.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { build } from 'esbuild';
import { inkText, inkWithoutTopLevelAwait, lazyChildProcess, yogaSynchronous } from './build-patches.mjs';

const version = JSON.parse(readFileSync('package.json', 'utf8')).version;
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  define: { 'process.env.NODE_ENV': '"production"' },
  jsx: 'automatic',
  logLevel: 'warning',
  legalComments: 'none',
};

/** `await import('node:fs')` in a command: vm.Script has no module loader, so it becomes a require(). */
const builtinDynamicImports = {
  name: 'builtin-dynamic-imports',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (a) => (a.kind === 'dynamic-import' ? { path: a.path, namespace: 'builtin' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (a) => ({
      contents: `module.exports = require(${JSON.stringify(a.path)});`,
      loader: 'js',
    }));
  },
};

/**
 * In dist/cli.cjs, what only the other builds' commands load (the TUI, the sandbox, the receiver, the bulk send,
 * `pdesk check`'s suite and `pdesk doctor`'s steps, undici, Ink, React, conf): a stub that says so if it is ever
 * reached (the write audit trail's durable log is src/core/durable-log.ts, not the bulk journal). The team store on
 * PostgreSQL and its driver stay in: with a team store configured, every command that reads or
 * writes the desk's store (threads, the audit trail of every write) uses it, from whichever build runs it; without
 * one it is never evaluated (a module imported with `await import()` runs on first use).
 */
const NOT_ONE_SHOT = /^(undici(\/.*)?|ink|react|conf)$|^src\/(tui|sandbox|listen|core\/bulk|core\/check|core\/doctor)\//;

/**
 * A plugin that leaves the modules matching `pattern` (and not `keep`) out of `file`: a package by its name, one of
 * ours by its path from the project's folder (`src/tui/main.js`, not `src/cli/commands/tui/index.js`). Importing
 * the stub is harmless (a static import of it must not break every command of the bundle); using anything from it
 * throws, naming the module and where the routing is decided.
 */
function leaveOut(name, pattern, keep, file, instead) {
  return {
    name,
    setup(b) {
      b.onResolve({ filter: /.*/ }, (a) => {
        if (a.importer.includes('node_modules') || a.namespace !== 'file') return undefined;
        const target = a.path.startsWith('.') ? relative(process.cwd(), resolve(a.resolveDir, a.path)).split(sep).join('/') : a.path;
        return pattern.test(target) && !keep?.test(target) ? { path: target, namespace: name } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: name }, (a) => ({
        contents: `const message = ${JSON.stringify(`pdesk: ${a.path} is not in ${file}; this command line should run from ${instead} (src/cli/route.ts).`)};
module.exports = new Proxy({}, { get(_, key) { if (key === '__esModule' || typeof key === 'symbol') return undefined; throw new Error(message); } });`,
        loader: 'js',
      }));
    },
  };
}
const notOneShot = leaveOut('not-one-shot', NOT_ONE_SHOT, undefined, 'the one-shot bundle (dist/cli.cjs)', 'dist/tui.cjs or dist/main.js');

/**
 * esbuild's `__toESM` wraps a CommonJS module for an ES module that imports it, copying every export into a
 * new object of getters, at every importing module: `node:process` (80 properties) for 20 of Ink's modules,
 * React (44) for each screen, thousands of properties at the TUI's start (docs/performance.md). Each module is
 * wrapped once instead (per import style), and the wrapper shared: an ES module namespace is read-only anyway.
 */
const TO_ESM = 'var __toESM = (mod, isNodeMode, target) => (';
function onceEsmWrapper(code) {
  const at = code.indexOf(TO_ESM);
  if (at < 0) return code; // no CommonJS module imported from an ES module
  if (code.indexOf(TO_ESM, at + 1) >= 0) throw new Error('two __toESM helpers in one bundle: update scripts/build.mjs');
  const cached = `var __toESMOnce = [new WeakMap(), new WeakMap()];
var __toESM = (mod, isNodeMode) => {
  if (mod === null || (typeof mod !== "object" && typeof mod !== "function")) return __toESMEach(mod, isNodeMode);
  const seen = __toESMOnce[isNodeMode ? 1 : 0];
  let ns = seen.get(mod);
  if (!ns) seen.set(mod, (ns = __toESMEach(mod, isNodeMode)));
  return ns;
};
var __toESMEach = (mod, isNodeMode, target) => (`;
  return code.slice(0, at) + cached + code.slice(at + TO_ESM.length);
}

/**
 * The bundle in ASCII. esbuild escapes non-ASCII characters in strings, templates, regular expressions and names,
 * but keeps some comments as written: one `§` in a comment made node decode all of dist/tui.cjs (2.9 MB) as UTF-8
 * into a two-byte string instead of taking it as one-byte text (the TUI's first frame: 1–2% sooner without it,
 * alternating runs). What is left is escaped here (`\u00a7`), which means the same character wherever it stands.
 */
function asciiOnly(code) {
  return code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Build one bundle and write it with its first line naming the build, which keys the code cache (V8 itself only
 * checks the source's length). The rest of the file is one function expression of CommonJS's five parameters, which
 * boot compiles as it stands: wrapping the text at load made a second copy of it (2.9 MB for the TUI's) and, for
 * the one-shot bundle, cost a scavenge at every start.
 */
async function bundle(entry, file, plugins, external = []) {
  const r = await build({ ...common, entryPoints: [entry], write: false, outfile: file, plugins, external, metafile: true });
  bundled(r.metafile);
  const code = asciiOnly(onceEsmWrapper(r.outputFiles[0].text));
  const dynamic = Object.values(r.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.kind === 'dynamic-import' && i.external));
  if (dynamic.length) throw new Error(`${file} must not import() ${dynamic.map((i) => i.path).join(', ')}: vm.Script has no module loader`);
  const text = `(function (exports, require, module, __filename, __dirname) {${code}\n})`;
  // The hash is of the text as compiled: a cache made for another shape of the same code is never taken.
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  writeFileSync(file, `// pdesk ${version} ${hash}\n${text}`);
}

/** The package folders (node_modules/…) whose files the builds carry, gathered from each build's metafile. */
const packages = new Set();
function bundled(metafile) {
  for (const input of Object.keys(metafile.inputs)) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) packages.add(m[1]);
  }
}

/** Each bundled package's name, version, licence and licence text (with its NOTICE, if it has one). */
function thirdPartyNotices() {
  const parts = [...packages]
    .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) }))
    .sort((a, b) => a.pkg.name.localeCompare(b.pkg.name) || a.pkg.version.localeCompare(b.pkg.version))
    .map(({ dir, pkg }) => {
      const repo = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
      const texts = readdirSync(dir)
        .filter((f) => /^(licen[cs]e|copying|notice)/i.test(f))
        .sort()
        .map((f) => readFileSync(`${dir}/${f}`, 'utf8').trim());
      return [
        `${pkg.name} ${pkg.version} (${pkg.license ?? 'no licence named'})${repo ? `\nsource: ${repo.replace(/^git\+/, '')}` : ''}`,
        texts.length ? texts.join('\n\n') : `The package ships no licence file; its package.json names the licence ${pkg.license}.`,
      ].join('\n\n');
    });
  const rule = `\n\n${'-'.repeat(78)}\n\n`;
  const intro = [
    `pdesk ${version}: the bundles in this folder include the packages below. scripts/build-patches.mjs changes`,
    'when some of them start (commander, ink, yoga-layout and the text libraries ink uses: string-width,',
    'wrap-ansi, slice-ansi, @alcalzone/ansi-tokenize), not what they do.',
  ].join('\n');
  return `${intro}${rule}${parts.join(rule)}\n`;
}

// Build into a fresh folder and swap it in, so a pdesk process running meanwhile never sees a half-written dist/.
const tmp = `dist.tmp-${process.pid}`;
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp);
await build({ ...common, entryPoints: { boot: 'src/cli/boot.ts' }, outExtension: { '.js': '.cjs' }, outdir: tmp });
await bundle('src/cli/oneshot.ts', `${tmp}/cli.cjs`, [lazyChildProcess, notOneShot, builtinDynamicImports]);
await bundle(
  'src/cli/main.ts',
  `${tmp}/tui.cjs`,
  [lazyChildProcess, yogaSynchronous, inkWithoutTopLevelAwait, inkText, builtinDynamicImports],
  // Ink imports the React devtools only with DEV=true, which this build does not support (build-patches.mjs).
  ['react-devtools-core'],
);
const split = await build({
  ...common,
  metafile: true,
  entryPoints: { main: 'src/cli/main.ts' },
  format: 'esm',
  splitting: true,
  outdir: tmp,
  chunkNames: 'chunks/[name]-[hash]',
  external: ['react-devtools-core'],
  plugins: [lazyChildProcess, yogaSynchronous, inkWithoutTopLevelAwait, inkText],
  banner: { js: "import{createRequire as __pdeskCreateRequire}from'module';const require=__pdeskCreateRequire(import.meta.url);" },
});
bundled(split.metafile);
writeFileSync(`${tmp}/THIRD-PARTY-NOTICES.txt`, thirdPartyNotices());

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
