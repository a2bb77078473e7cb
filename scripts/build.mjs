// Bundle src/ into dist/ with esbuild: one ESM chunk for the CLI, split chunks for the TUI (Ink, React) and
// the sandbox, so that scripted subcommands never load Ink/React (DEVELOPERS.md, "Stack notes").
import { build } from 'esbuild';
import { renameSync, rmSync } from 'node:fs';

// Build into a fresh folder and swap it in, so a pdesk process running meanwhile never sees a half-written dist/.
const tmp = `dist.tmp-${process.pid}`;
await build({
  entryPoints: { main: 'src/cli/main.ts' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  splitting: true,
  outdir: tmp,
  chunkNames: 'chunks/[name]-[hash]',
  define: { 'process.env.NODE_ENV': '"production"' },
  external: ['react-devtools-core'],
  banner: { js: "import{createRequire as __pdeskCreateRequire}from'module';const require=__pdeskCreateRequire(import.meta.url);" },
  jsx: 'automatic',
  logLevel: 'warning',
  legalComments: 'none',
});
rmSync(`dist.old-${process.pid}`, { recursive: true, force: true });
try {
  renameSync('dist', `dist.old-${process.pid}`);
} catch {
  /* first build */
}
renameSync(tmp, 'dist');
rmSync(`dist.old-${process.pid}`, { recursive: true, force: true });
