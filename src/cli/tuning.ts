/**
 * V8 settings of a bulk send's process (`notifications send --csv`), set by the launcher (boot.ts) before the bundle
 * loads, for that process only: never from inside a command, never for another command. Figures: docs/performance.md.
 *
 * - `--liftoff-only`: undici's WebAssembly HTTP parser stays on V8's baseline (Liftoff) code. Its optimising compile
 *   is the largest part of a bulk send's peak memory, and the baseline code parses these small answers as fast.
 * - `--heap-growing-percent=20`: old space grows by at most a fifth between full collections; a bulk send promotes
 *   short-lived rows in the thousands.
 * - The young generation stops growing at `YOUNG_CAP_BYTES` (capYoungGeneration): V8 doubles the new space whenever
 *   enough objects survived since its last growth, up to 2 × 16 MB on Node 20, and over thousands of rows it always
 *   gets there. Its maximum is fixed when the process starts; what V8 reads at each growth is the growth factor.
 *
 * node:v8 is loaded here only when a bulk send starts (process.getBuiltinModule: the launcher's path).
 */

/** Where the young generation stops growing: 2 × 8 MB semi-spaces. */
export const YOUNG_CAP_BYTES = 16 * 1024 * 1024;

const v8 = () => process.getBuiltinModule('node:v8');

/**
 * Stop the new space's growth once it has reached `bytes`, polled every `everyMs` (far less often than V8 can grow it
 * twice). Returns a function that ends the cap: it stops watching and lets the new space grow again as V8 would
 * (its default factor, 2).
 */
export function capYoungGeneration(bytes = YOUNG_CAP_BYTES, everyMs = 50): () => void {
  let capped = false;
  const check = (): boolean => {
    const space = v8()
      .getHeapSpaceStatistics()
      .find((s) => s.space_name === 'new_space');
    if (!space || space.space_size < bytes) return false;
    v8().setFlagsFromString('--semi-space-growth-factor=1');
    capped = true;
    return true;
  };
  const timer = check()
    ? undefined
    : setInterval(() => {
        if (check()) clearInterval(timer);
      }, everyMs);
  timer?.unref();
  return () => {
    clearInterval(timer);
    if (capped) v8().setFlagsFromString('--semi-space-growth-factor=2');
  };
}

/** The settings of a bulk send, for the rest of this process. */
export function tuneForBulkSend(): void {
  v8().setFlagsFromString('--liftoff-only');
  v8().setFlagsFromString('--heap-growing-percent=20');
  capYoungGeneration();
}
