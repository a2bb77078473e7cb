// In-process harnesses for the benches: a TSX module importing pdesk's own code, bundled as dist/ is built.
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { inkText } from '../scripts/build-patches.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Bundle a small in-process harness (`contents`: TSX importing from src/ and test/helpers/, e.g. the real SlotList
 * under the real key router, or the whole Root) with the dependency patches dist/ gets, and load it.
 */
export async function loadHarness(dir, contents, name) {
  const outfile = join(dir, `${name}.mjs`);
  await build({
    stdin: {
      contents,
      resolveDir: root,
      loader: 'tsx',
      sourcefile: `${name}.tsx`,
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    // Ink imports the devtools only in development; stub it so the one-file harness has no dangling import.
    // Ink's text libraries get the patches dist/ gets (scripts/build-patches.mjs), so keys are timed as shipped.
    plugins: [
      inkText,
      {
        name: 'stub-devtools',
        setup(b) {
          b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'react-devtools-core', namespace: 'stub' }));
          b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
            contents: 'export default { initialize() {}, connectToDevTools() {} };',
          }));
        },
      },
    ],
    banner: { js: "import{createRequire as __cr}from'module';const require=__cr(import.meta.url);" },
    logLevel: 'warning',
  });
  return import(pathToFileURL(outfile).href);
}

const nextTurn = () => new Promise((r) => setImmediate(r));

/** Each key written to an ink-testing-library render, timed until the next frame is drawn (ms each). */
export async function keyTimes(ui, keys) {
  const times = [];
  for (const k of keys) {
    const before = ui.frames.length;
    const s = performance.now();
    ui.stdin.write(k);
    while (ui.frames.length === before) await nextTurn();
    times.push(performance.now() - s);
  }
  return times;
}
