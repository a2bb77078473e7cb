/** Rows of the Notify screen's sent list. */
import type { SortColumn } from '../../components/sort.js';
import { clean, columns, growWidths, longestOf } from '../../format.js';
import type { SentNotification } from './useNotify.js';

export const SENT_HEADER = ['TIME', 'HTTP', 'EMAIL', 'TOPIC', 'TEXT'];

/** TIME, HTTP, EMAIL, TOPIC, TEXT: the text gets what is left; email and topic grow on a wide terminal. */
export const sentWidths = (width: number, sent: readonly SentNotification[]) =>
  growWidths(
    width < 100 ? [8, 4, 24, 16, 0] : [8, 4, 30, 24, 0],
    [0, 0, longestOf(sent.map((s) => clean(s.email))), longestOf(sent.map((s) => clean(s.topic))), 0],
    width,
  );

/** Local time of day, `14:03:59`. */
export const sentTime = (d: Date) => d.toTimeString().slice(0, 8);

export const sentRow = (s: SentNotification, width: number, w: readonly number[]) =>
  columns([sentTime(s.at), String(s.status), clean(s.email), clean(s.topic), clean(s.text)], w, width);

export const SENT_COLUMNS: readonly SortColumn<SentNotification>[] = [
  { key: 't', name: 'time', value: (x) => x.n, desc: true },
  { key: 'h', name: 'HTTP status', value: (x) => x.status },
  { key: 'e', name: 'email', value: (x) => x.email },
  { key: 'o', name: 'topic', value: (x) => x.topic },
];
