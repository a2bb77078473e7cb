/**
 * Which command lines run long: the TUI, `listen`, the sandbox, a bulk send (`--csv`), `check` and `doctor`.
 * They keep undici's keep-alive pools; every other command is one-shot and sends through node:http, which
 * spares it loading undici (src/core/transport-default.ts). Decided from argv once, before any client exists.
 */
const LONG_RUNNING = new Set(['tui', 'listen', 'sandbox', 'check', 'doctor']);
/** Global options that take a value, which may stand before the command (`--profile prod tui`). */
const VALUE_OPTIONS = new Set(['--profile', '--limit', '--output']);

export function isLongRunning(args: readonly string[]): boolean {
  if (args.length === 0) return true; // `pdesk` opens the TUI
  if (args.some((a) => a === '--csv' || a.startsWith('--csv='))) return true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return false;
    if (VALUE_OPTIONS.has(a)) i++;
    else if (!a.startsWith('-')) return LONG_RUNNING.has(a);
  }
  return false;
}
