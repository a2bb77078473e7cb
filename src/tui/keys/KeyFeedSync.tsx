/**
 * Tells the key feed (useKeyFeed.ts) when React has committed what the last key changed: on request, right
 * after the key, it makes an update of its own at the same priority, which React batches with the key's
 * updates into one commit; once that commit is done — every layout effect run, so the key bindings of what
 * opened are registered — the next keys go.
 */
import { useLayoutEffect, useState } from 'react';
import type { KeyFeed } from './useKeyFeed.js';

export function KeyFeedSync({ feed }: { feed: KeyFeed }) {
  const [seq, setSeq] = useState(0);
  useLayoutEffect(() => {
    feed.request = () => setSeq((n) => n + 1);
    return () => {
      feed.request = undefined;
    };
  }, [feed]);
  useLayoutEffect(() => {
    // After the whole commit (other components' layout effects of it included).
    if (seq) queueMicrotask(feed.settled);
  }, [seq, feed]);
  return null;
}
