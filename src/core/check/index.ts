/**
 * `pdesk check`: a conformance suite for the interface, run against a profile's servers.
 *
 *   const report = await runSuite({ profile, write, only, signal, onStart, onResult });
 *   report.results  // [{id: 'A4-free-only', op: 'A4', result: 'pass' | 'fail' | …, messages, exchanges}]
 *   reportJson(report) · junitXml([report])
 *
 * model.ts (results), suite.ts (the checks, `--only`), runner.ts (a run), appointments.ts, chat.ts,
 * medication.ts (the checks of each API), answers.ts and search.ts (what every answer is checked for),
 * report.ts and junit.ts (reports).
 */
export * from './model.js';
export { DEFAULT_SLOW_MS, type SuiteOptions, checkInputs, classify, runSuite } from './runner.js';
export { SUITE, selectChecks, suiteInfo } from './suite.js';
export { MAX_PAGES } from './search.js';
export { reportJson, type ReportJson, type ResultJson } from './report.js';
export { junitXml } from './junit.js';
