// Bundle src/ into dist/ with esbuild: one ESM chunk for the CLI, split chunks for the TUI (Ink, React) and
// the sandbox, so that scripted subcommands never load Ink/React (see ../shared/notes/stack.md, start-up).
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { main: 'src/cli/main.ts' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  splitting: true,
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  define: { 'process.env.NODE_ENV': '"production"' },
  external: ['react-devtools-core'],
  banner: { js: "import{createRequire as __pdeskCreateRequire}from'module';const require=__pdeskCreateRequire(import.meta.url);" },
  jsx: 'automatic',
  logLevel: 'warning',
  legalComments: 'none',
});
