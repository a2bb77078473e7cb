/**
 * The pace of a bulk send (src/core/bulk/rate.ts): `--rate` parsing, evenly spaced starts, a 429 pausing every
 * request and halving the rate once per pause, the additive recovery after a quiet period, and Ctrl-C ending every
 * wait. And the whole of it against simulated servers, on a fake clock: one that answers every tenth request 429
 * (issue 35, item 9: `--rate 50` against `sandbox --throttle 10`, 200 rows, took 113 s) and a token bucket.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PAUSE_MS, RECOVER_QUIET_MS, RECOVER_STEP_MS, RateLimiter, parseRate } from '../../../src/core/bulk/rate.js';

describe('parseRate', () => {
  it('takes 50 and 50/s, nothing else', () => {
    expect(parseRate('50')).toBe(50);
    expect(parseRate('50/s')).toBe(50);
    expect(parseRate(' 2.5 / s ')).toBe(2.5);
    for (const bad of ['0', '-1', 'x', '50/m', '', '5 0']) expect(parseRate(bad), bad).toBeUndefined();
  });
});

describe('RateLimiter', () => {
  it('spaces starts evenly: 20 at 100/s take about 190 ms, with no burst at the start', async () => {
    const r = new RateLimiter(100);
    const t0 = performance.now();
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        await r.take();
        starts.push(performance.now() - t0);
      }),
    );
    expect(Math.max(...starts)).toBeGreaterThanOrEqual(185);
    // 10 ms apart: 0, 10, …, 40 and, with a timer's millisecond rounding, one at 49.x; a burst would be 20.
    expect(starts.filter((s) => s < 50).length).toBeLessThanOrEqual(6);
    expect(r.state().limit).toBe(100);
  });

  it('without a rate it does not wait', async () => {
    const r = new RateLimiter();
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 100 }, () => r.take()));
    expect(performance.now() - t0).toBeLessThan(50);
    expect(r.state()).toEqual({ current: 100, pausedMs: 0 });
  });

  it('a 429 pauses for Retry-After (1 s without one, at most 10 s) and halves the rate once per pause and quiet period', () => {
    let now = 100_000;
    const r = new RateLimiter(40, () => now);
    r.throttled(2000);
    expect(r.state()).toEqual({ current: 0, limit: 20, pausedMs: 2000 });
    now += 100;
    r.throttled(2000); // another answer of the same burst: no second cut
    expect(r.state().limit).toBe(20);
    now += 5000;
    r.throttled(undefined);
    expect(r.state()).toMatchObject({ limit: 10, pausedMs: DEFAULT_PAUSE_MS });
    now += 5000;
    r.throttled(60_000);
    expect(r.state()).toMatchObject({ limit: 5, pausedMs: 10_000 });
  });

  it('recovers additively after a quiet period: a tenth of the rate asked for every step, up to it', () => {
    let now = 100_000;
    const r = new RateLimiter(40, () => now);
    r.throttled(500);
    expect(r.state().limit).toBe(20);
    now += 600;
    r.ok(); // the pause is over, the quiet period is not
    expect(r.state().limit).toBe(20);
    now = 100_000 + RECOVER_QUIET_MS + RECOVER_STEP_MS - 1;
    r.ok();
    expect(r.state().limit).toBe(20);
    now += 1;
    r.ok(); // one step: +4 (a tenth of 40)
    expect(r.state().limit).toBe(24);
    r.ok(); // too soon for another
    expect(r.state().limit).toBe(24);
    now += 3 * RECOVER_STEP_MS; // steps missed between two answers are all taken
    r.ok();
    expect(r.state().limit).toBe(36);
    now += 10 * RECOVER_STEP_MS;
    r.ok();
    expect(r.state().limit).toBe(40);
    // A 429 in the quiet period starts it again.
    r.throttled(undefined);
    expect(r.state().limit).toBe(20);
    now += RECOVER_QUIET_MS - 1;
    r.ok();
    expect(r.state().limit).toBe(20);
  });

  it('a run without a rate gets one after a 429 (half of what it reached), then goes back to none', async () => {
    let now = 100_000;
    const r = new RateLimiter(undefined, () => now);
    for (let i = 0; i < 40; i++) await r.take(); // 40 starts within the last second
    r.throttled(1000);
    expect(r.state().limit).toBe(20);
    now += RECOVER_QUIET_MS + 4 * RECOVER_STEP_MS;
    r.ok(); // 20 + 4 × 4 (a tenth of the 40 it had reached)
    expect(r.state().limit).toBe(36);
    now += RECOVER_STEP_MS;
    r.ok();
    expect(r.state().limit).toBeUndefined();
  });

  it('stop() ends every wait at once (Ctrl-C during a pause)', async () => {
    const r = new RateLimiter(1);
    r.throttled(10_000);
    const t0 = performance.now();
    const waiting = Promise.all([r.take(), r.take()]);
    setTimeout(() => r.stop(), 30);
    await waiting;
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});

describe('a bulk send against a throttling server (fake clock)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * Send `rows` rows, one request at a time (5 ms each), through a limiter asked for `rate`; `answer(n)` says whether
   * the n-th request is taken (else 429 with Retry-After 1 s). Returns the seconds it took and the 429s.
   */
  async function run(rate: number | undefined, rows: number, answer: (n: number, now: number) => boolean) {
    vi.useFakeTimers({ now: 1_000_000 });
    const r = new RateLimiter(rate);
    const t0 = Date.now();
    let done = 0;
    let n = 0;
    let throttled = 0;
    while (done < rows) {
      let started = false;
      const turn = r.take().then(() => {
        started = true;
      });
      while (!started) await vi.advanceTimersByTimeAsync(5);
      await turn;
      await vi.advanceTimersByTimeAsync(5);
      if (answer(++n, Date.now())) {
        done++;
        r.ok();
      } else {
        throttled++;
        r.throttled(1000);
      }
    }
    return { seconds: (Date.now() - t0) / 1000, throttled };
  }

  it('--rate 50 against a server answering every tenth request 429: 200 rows in at most 40 s (before: 111 s)', async () => {
    const { seconds, throttled } = await run(50, 200, (n) => n % 10 !== 0);
    expect(throttled).toBe(22);
    // 22 pauses of a second are 22 s whatever the rate; the rest is sending, at a rate that came back between them.
    expect(seconds).toBeLessThanOrEqual(40);
    expect(seconds).toBeGreaterThan(26);
  }, 30_000);

  it("against a token bucket of 10/s it settles near the server's rate, with few 429s", async () => {
    let tokens = 10;
    let at = 1_000_000;
    const { seconds, throttled } = await run(50, 500, (_n, now) => {
      tokens = Math.min(10, tokens + ((now - at) / 1000) * 10);
      at = now;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    });
    const rate = 500 / seconds;
    expect(rate).toBeGreaterThan(7);
    expect(rate).toBeLessThan(11);
    expect(throttled / (500 + throttled)).toBeLessThan(0.1);
  }, 30_000);
});
