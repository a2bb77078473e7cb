/**
 * Ink's input to the key router: every key counts, in order. Control characters are split off (splitKeys); a
 * run of text goes whole to a binding that takes text (a form field, the filter: a paste stays one edit), and
 * otherwise key by key, so `jj` moves two rows and `qq` quits. A key that did something may change what the
 * next one reaches (`:` opens the palette the next key types into), and React renders that change in a later
 * task (React 19 schedules it; under load, after other work): the keys after it, in the same chunk or read
 * meanwhile, wait until it is committed (KeyFeedSync, rendered beside the tree, tells when).
 */
import type { Key } from 'ink';
import { useMemo } from 'react';
import { isText } from './names.js';
import type { KeyRouter } from './router.js';

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

/**
 * Ink splits a chunk of input at escape sequences but hands a run of plain characters over whole, control
 * characters included: `pat-1\r`, `\r\r\r` (keys typed faster than they were read, tmux send-keys, a paste
 * ending in Enter) arrive as one event that no binding matches, and the keys are lost. Split such a run into
 * the keys Ink would have reported one by one; anything else is returned as the one event it is.
 */
export function splitKeys(input: string, key: Key): Array<[string, Key]> {
  const flagged = Object.entries(key).some(([k, v]) => v === true && k !== 'shift');
  if (flagged || input.length <= 1 || !/[\u0000-\u001f\u007f]/.test(input)) return [[input, key]];
  const out: Array<[string, Key]> = [];
  for (const t of input.match(/[\u0000-\u001f\u007f]|[^\u0000-\u001f\u007f]+/g) ?? []) {
    const c = t.charCodeAt(0);
    if (t === '\r' || t === '\n') out.push(['', { ...NO_KEY, return: true }]);
    else if (t === '\t') out.push(['', { ...NO_KEY, tab: true }]);
    else if (t === '\u007f' || t === '\b') out.push(['', { ...NO_KEY, delete: true }]);
    else if (t === '\u001b') out.push(['', { ...NO_KEY, escape: true, meta: true }]);
    else if (c >= 1 && c <= 26) out.push([String.fromCharCode(c + 96), { ...NO_KEY, ctrl: true }]);
    else if (c >= 32) out.push([t, { ...NO_KEY, shift: t.length === 1 && /[A-Z]/.test(t) }]);
  }
  return out;
}

/** The characters of a run of text as the single keys Ink would have reported one by one. */
function charKeys(input: string): Array<[string, Key]> {
  return [...input].map((ch) => [ch, { ...NO_KEY, shift: /^[A-Z]$/.test(ch) }]);
}

/** A run of several printable characters in one event (`jj`, a paste). */
function isRun(input: string, key: Key): boolean {
  return [...input].length > 1 && isText(input, key);
}

/** The input handler of the TUI, and the hand-shake with KeyFeedSync. */
export interface KeyFeed {
  (input: string, key: Key): void;
  /** Set by KeyFeedSync: ask for a commit after everything React has pending. */
  request?: () => void;
  /** Called by KeyFeedSync once that commit is done. */
  settled(): void;
}

export function useKeyFeed(router: KeyRouter): KeyFeed {
  return useMemo(() => {
    const queue: Array<[string, Key]> = [];
    let settling = false;
    /** One key; true when a binding took it. A run of text no binding took goes back as its keys. */
    const one = (input: string, key: Key) => {
      if (router.dispatch(input, key)) return true;
      if (isRun(input, key)) queue.unshift(...charKeys(input));
      return false;
    };
    const drain = () => {
      while (!settling && queue.length) {
        const [input, key] = queue.shift()!;
        if (one(input, key)) {
          settling = true;
          if (feed.request) feed.request();
          else setImmediate(feed.settled); // no KeyFeedSync (a bare test host): the next task
        }
      }
    };
    const feed: KeyFeed = Object.assign(
      (input: string, key: Key) => {
        queue.push(...splitKeys(input, key));
        drain();
      },
      {
        settled: () => {
          if (!settling) return;
          settling = false;
          drain();
        },
      },
    );
    return feed;
  }, [router]);
}
