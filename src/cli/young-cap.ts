/**
 * A cap on V8's young generation for a long bulk send. V8 doubles the new space whenever enough objects have
 * survived since its last growth, up to 2 × 16 MB on Node 20, and over a run of thousands of rows it always gets
 * there: a third of a 100,000-row send's peak RSS. The cap stops the doubling once the new space has reached
 * `bytes`: growth is a flag V8 reads at each growth (`--semi-space-growth-factor`), while the maximum size is fixed
 * when the process starts. Polled every 50 ms, far less often than V8 can grow it twice.
 *
 * Measured (bench/notifications.mjs, docs/performance.md): 2 × 8 MB holds a 100,000-row send under 100 MB for
 * the same CPU per row; 2 × 4 MB saves 8 MB more but costs ~15% more CPU per row in scavenges.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

export const YOUNG_CAP_BYTES = 16 * 1024 * 1024;

/**
 * Start watching; returns a function that ends the cap: it stops watching, and lets the new space grow again as V8
 * would (V8's default factor, 2), so that a process that goes on after the send (a test runner) is not left capped.
 */
export function capYoungGeneration(bytes = YOUNG_CAP_BYTES, everyMs = 50): () => void {
  let capped = false;
  const check = (): boolean => {
    const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    if (!space || space.space_size < bytes) return false;
    setFlagsFromString('--semi-space-growth-factor=1');
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
    if (capped) setFlagsFromString('--semi-space-growth-factor=2');
  };
}
