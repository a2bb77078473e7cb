/**
 * `pdesk doctor`: triage of a profile (runner.ts) — the profile and its secrets (secrets.ts), each party's DNS,
 * TCP, TLS (network.ts), token, round trip and clock, the thread store and journals (local.ts) — with the result
 * vocabulary of `pdesk check` (model.ts).
 */
export * from './model.js';
export { type DoctorOptions, runDoctor } from './runner.js';
