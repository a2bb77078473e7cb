/**
 * Global setup of the opt-in assertion counter (see count-assertions.ts): a fresh file for the per-file lines,
 * and at the end of the run the totals, printed and kept in `assertion-count.json` beside vitest.config.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    assertionCountFile: string;
  }
}

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'pdesk-assertions-'));
  const file = join(dir, 'counts.ndjson');
  writeFileSync(file, '');
  project.provide('assertionCountFile', file);
  return () => {
    const rows = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { file: string; tests: number; assertions: number });
    const tests = rows.reduce((a, r) => a + r.tests, 0);
    const assertions = rows.reduce((a, r) => a + r.assertions, 0);
    const root = project.config.root;
    const files = Object.fromEntries(
      rows
        .sort((a, b) => a.file.localeCompare(b.file))
        .map((r) => [r.file.replace(`${root}/`, ''), { tests: r.tests, assertions: r.assertions }]),
    );
    writeFileSync(
      join(root, 'assertion-count.json'),
      `${JSON.stringify({ files: rows.length, tests, assertions, perFile: files }, null, 2)}\n`,
    );
    process.stdout.write(
      `\nassertions: ${assertions} assertion calls in ${tests} tests (${rows.length} files); per file in assertion-count.json\n`,
    );
    rmSync(dir, { recursive: true, force: true });
  };
}
