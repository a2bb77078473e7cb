/**
 * Opt-in assertion counter (`PDESK_COUNT_ASSERTIONS=1 npx vitest run`): a setup file that adds up
 * `expect.getState().assertionCalls` after every test and appends one line per test file to the file the
 * global setup (count-assertions-global.ts) provides; the global teardown prints the totals. A converted test
 * must assert at least what it asserted before: compare the totals before and after a change.
 */
import { appendFileSync } from 'node:fs';
import { afterAll, afterEach, expect, inject } from 'vitest';

let tests = 0;
let assertions = 0;
afterEach(() => {
  tests += 1;
  assertions += expect.getState().assertionCalls;
});
afterAll(() => {
  const file = expect.getState().testPath ?? '?';
  appendFileSync(inject('assertionCountFile'), `${JSON.stringify({ file, tests, assertions })}\n`);
});
