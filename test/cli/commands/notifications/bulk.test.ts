/**
 * `pdesk notifications send --csv`'s progress line (src/cli/commands/notifications/bulk.ts). The bulk send itself
 * runs as a process (test/process/notifications-bulk.test.ts) and in core (test/core/bulk/).
 */
import { describe, expect, it } from 'vitest';
import { progressLine } from '../../../../src/cli/commands/notifications/bulk.js';

describe('bulk progress line (stderr on a terminal)', () => {
  it('shows rows done of the total, the rate, failures and an ETA', () => {
    const c = {
      total: 3000,
      seen: 1300,
      sent: 1000,
      skipped: 200,
      failed: 20,
      failedServer: 20,
      uncertain: 0,
      inFlight: 8,
      throttled: 0,
      startedAt: 0,
    };
    expect(progressLine(c, 2000)).toBe('1220/3000 rows · 510/s · 20 failed · ETA 3s');
    expect(progressLine({ ...c, total: undefined, uncertain: 2 }, 2000)).toBe('1222 rows · 510/s · 20 failed · 2 uncertain');
  });

  it("with the run's pace: the rate of the last second, its limit, a pause after a 429 and how many there were", () => {
    const c = {
      total: 200,
      seen: 60,
      sent: 50,
      skipped: 0,
      failed: 0,
      failedServer: 0,
      uncertain: 0,
      inFlight: 8,
      throttled: 0,
      startedAt: 0,
    };
    expect(progressLine(c, 1000, { current: 48, limit: 50, pausedMs: 0 })).toBe('50/200 rows · 48/s (limit 50/s) · 0 failed · ETA 3s');
    expect(progressLine({ ...c, throttled: 3 }, 1000, { current: 0, limit: 12.5, pausedMs: 800 })).toBe(
      '50/200 rows · 0.0/s (limit 13/s) · paused 0.8s (HTTP 429) · 0 failed · 3 × 429 · ETA 3s',
    );
    expect(progressLine(c, 1000, { current: 812, pausedMs: 0 })).toBe('50/200 rows · 812/s · 0 failed · ETA 3s');
  });
});
