/**
 * The pace of a bulk send (src/core/bulk/rate.ts): `--rate` parsing, evenly spaced starts, a 429 pausing every
 * request and halving the rate once per pause, the slow recovery, and Ctrl-C ending every wait.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAUSE_MS, RECOVER_MS, RateLimiter, parseRate } from '../../../src/core/bulk/rate.js';

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

  it('a 429 pauses for Retry-After (1 s without one, at most 10 s) and halves the rate once per pause', () => {
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

  it('recovers by a tenth after each quiet stretch, up to the rate asked for', () => {
    let now = 100_000;
    const r = new RateLimiter(10, () => now);
    r.throttled(1000);
    expect(r.state().limit).toBe(5);
    r.ok(); // still paused
    expect(r.state().limit).toBe(5);
    now += 1000 + RECOVER_MS;
    r.ok();
    expect(r.state().limit).toBe(6);
    r.ok(); // too soon for another raise
    expect(r.state().limit).toBe(6);
    for (let i = 0; i < 20; i++) {
      now += RECOVER_MS;
      r.ok();
    }
    expect(r.state().limit).toBe(10);
  });

  it('a run without a rate gets one after a 429 (half of what it reached), then goes back to none', async () => {
    let now = 100_000;
    const r = new RateLimiter(undefined, () => now);
    for (let i = 0; i < 40; i++) await r.take(); // 40 starts within the last second
    r.throttled(1000);
    expect(r.state().limit).toBe(20);
    for (let i = 0; i < 20 && r.state().limit !== undefined; i++) {
      now += RECOVER_MS + 1000;
      r.ok();
    }
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
