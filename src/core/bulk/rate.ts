/**
 * The pace of a bulk send (`--rate <n>`, profile `bulk.rate`): at most `rate` requests start per second across
 * the whole run, evenly spaced (one every 1000/rate ms, no burst), whatever the concurrency.
 *
 * A 429 (Too Many Requests) slows the whole run down instead of failing rows (AIMD, decisions.md §15): every
 * request waits out the server's `Retry-After` (1 s when it names none, at most MAX_RETRY_AFTER_MS as decisions.md
 * §3 says; the answer's request is sent again after it: the server did not take it), and the rate is halved (from
 * the rate measured so far when the run had none). 429s of requests already in flight during that pause do not
 * halve it again. The rate recovers additively after a quiet period: once RECOVER_QUIET_MS have passed since the
 * last 429 (its pause counts), it rises by a tenth of the ceiling every RECOVER_STEP_MS, up to the ceiling: the
 * rate asked for, or, for a run without one, the rate measured before the first 429, where the limit is lifted
 * again. A fixed step, not a proportional one: a rate cut to its floor comes back in seconds, where a tenth of
 * itself every few seconds left a run against a server that answers one request in ten with 429 crawling at 1–2
 * rows a second.
 */
import { MAX_RETRY_AFTER_MS } from '../transport.js';

/** How long a 429 without a usable Retry-After pauses the run. */
export const DEFAULT_PAUSE_MS = 1000;
/** The quiet period: the rate starts to recover once this long has passed since the last 429. */
export const RECOVER_QUIET_MS = 1000;
/** After the quiet period, the rate rises by a tenth of its ceiling (at least 1/s) every this long. */
export const RECOVER_STEP_MS = 250;
/** Never slower than this (requests per second). */
export const MIN_RATE = 0.5;

/** `50` or `50/s` (as `--rate` takes it) → 50; anything else undefined. */
export function parseRate(value: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:\/\s*s)?\s*$/i.exec(value);
  if (!m) return undefined;
  const n = Number(m[1]);
  return n > 0 && Number.isFinite(n) ? n : undefined;
}

export interface RateState {
  /** Requests started per second over the last second. */
  current: number;
  /** The limit now, if any (the rate asked for, or lower after a 429). */
  limit?: number;
  /** Milliseconds left of a pause after a 429 (0 when not paused). */
  pausedMs: number;
}

type Clock = () => number;

export class RateLimiter {
  private limit?: number;
  /** Where a lowered limit recovers to: the rate asked for, else the rate measured before the first cut. */
  private ceiling?: number;
  private readonly asked?: number;
  private nextAt = 0;
  private pausedUntil = 0;
  /** No second cut before this: the end of the last cut's pause and the quiet period after it. */
  private noCutBefore = Number.NEGATIVE_INFINITY;
  /** When the last 429 was answered (the quiet period runs from it), and when the rate last rose. */
  private last429 = Number.NEGATIVE_INFINITY;
  private lastRaise = Number.NEGATIVE_INFINITY;
  private stopped = false;
  private readonly sleepers = new Set<() => void>();
  /** Starts per 100 ms over the last second: a ring of ten buckets, each with the 100-ms slot it counts. */
  private readonly counts = new Array<number>(10).fill(0);
  private readonly slots = new Array<number>(10).fill(-1);

  constructor(
    rate?: number,
    private readonly clock: Clock = Date.now,
  ) {
    this.limit = rate;
    this.asked = rate;
    this.ceiling = rate;
  }

  /** Stop waiting: every `take()` returns at once from now on (Ctrl-C). */
  stop(): void {
    this.stopped = true;
    for (const wake of this.sleepers) wake();
    this.sleepers.clear();
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(t);
        this.sleepers.delete(wake);
        resolve();
      };
      const t = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }

  private count(now: number): void {
    const slot = Math.floor(now / 100);
    const i = slot % 10;
    if (this.slots[i] !== slot) {
      this.slots[i] = slot;
      this.counts[i] = 0;
    }
    this.counts[i]! += 1;
  }

  /** Requests started in the last second. */
  private recent(now: number): number {
    const slot = Math.floor(now / 100);
    let n = 0;
    for (let i = 0; i < 10; i++) if (this.slots[i]! > slot - 10) n += this.counts[i]!;
    return n;
  }

  /**
   * This request's turn without waiting, when it is now (no limit and no pause, or stopped): counted, true. The
   * bulk runner asks this first, so a run without a limit pays no promise per row.
   */
  takeNow(): boolean {
    if (this.stopped) return true;
    if (this.limit !== undefined) return false;
    const now = this.clock();
    if (now < this.pausedUntil) return false;
    this.count(now);
    return true;
  }

  /** Wait for this request's turn: after any pause, and its own slot under the limit. */
  async take(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const now = this.clock();
      if (now < this.pausedUntil) {
        await this.sleep(this.pausedUntil - now);
        continue;
      }
      if (this.limit !== undefined) {
        const slot = Math.max(now, this.nextAt);
        this.nextAt = slot + 1000 / this.limit;
        if (slot > now) {
          await this.sleep(slot - now);
          // A 429 meanwhile paused the run: wait that out too (this slot is given up).
          if (this.clock() < this.pausedUntil) continue;
        }
      }
      this.count(this.clock());
      return;
    }
  }

  /**
   * A 429: pause every request for `retryAfterMs` (capped), and halve the rate, at most once per pause and the
   * quiet period after it: a cut is judged by what follows it, so 429s answered meanwhile (requests in flight when
   * the pause began, or sent as it ended) only extend the pause and put off the recovery.
   */
  throttled(retryAfterMs: number | undefined): void {
    const now = this.clock();
    const wait = Math.min(MAX_RETRY_AFTER_MS, retryAfterMs ?? DEFAULT_PAUSE_MS);
    const cutAgain = now >= this.noCutBefore;
    this.pausedUntil = Math.max(this.pausedUntil, now + wait);
    this.nextAt = Math.max(this.nextAt, this.pausedUntil);
    if (cutAgain) {
      const measured = Math.max(MIN_RATE, this.recent(now));
      const base = this.limit ?? measured;
      if (this.asked === undefined && this.ceiling === undefined) this.ceiling = base;
      this.limit = Math.max(MIN_RATE, base / 2);
      this.noCutBefore = this.pausedUntil + RECOVER_QUIET_MS;
    }
    this.last429 = now;
  }

  /**
   * A request went through: once RECOVER_QUIET_MS have passed since the last 429 (its pause included) and the run
   * is not paused, the limit rises by a tenth of its ceiling (at least 1/s) for every RECOVER_STEP_MS since then (or
   * since the last rise). Steps never accrue during a pause: a long Retry-After is not made up for after it.
   */
  ok(): void {
    const ceiling = this.ceiling;
    if (this.limit === undefined || ceiling === undefined || this.limit >= ceiling) return;
    const now = this.clock();
    const from = Math.max(this.lastRaise, this.last429 + RECOVER_QUIET_MS, this.pausedUntil);
    if (now < this.pausedUntil || now < from + RECOVER_STEP_MS) return;
    const steps = Math.floor((now - from) / RECOVER_STEP_MS);
    this.lastRaise = from + steps * RECOVER_STEP_MS;
    const next = this.limit + steps * Math.max(1, ceiling / 10);
    if (next < ceiling) this.limit = next;
    else if (this.asked !== undefined) this.limit = this.asked;
    else {
      this.limit = undefined; // back to the pace the run had before the first 429
      this.ceiling = undefined;
    }
  }

  state(): RateState {
    const now = this.clock();
    return {
      current: this.recent(now),
      ...(this.limit !== undefined ? { limit: this.limit } : {}),
      pausedMs: Math.max(0, this.pausedUntil - now),
    };
  }
}
