/** Text helpers of the Chat screen: local times, message rows, word wrap. Server text goes through clean(). */
import { localTimeText } from '../../../core/dates.js';
import type { DeskMessage, DeskThread, Viewer } from '../../../core/store/types.js';
import type { ThreadMessage, ThreadSummary } from '../../../core/threads/index.js';
import { sanitize } from '../../../core/sanitize.js';
import type { SortColumn } from '../../components/sort.js';
import { clean, columns, fit, growWidths, idWidth, longestOf, wrap } from '../../format.js';

/** `03-01 10:15` in local time, or the text itself when it is not a date. */
export function shortTime(iso: string | undefined): string {
  return clean(localTimeText(iso, 'MM-dd HH:mm'));
}

/** `03-01 10:15:03` in local time (with the year when it is not this year). */
export function midTime(iso: string | undefined, now = new Date()): string {
  const thisYear = iso !== undefined && new Date(iso).getFullYear() === now.getFullYear();
  return clean(localTimeText(iso, thisYear ? 'MM-dd HH:mm:ss' : 'yyyy-MM-dd HH:mm:ss'));
}

export const THREAD_WIDTHS = [14, 6, 10, 6, 4, 11, 0] as const;
export const THREAD_HEADER = ['THREAD', 'STATE', 'OWNER', 'UNREAD', 'MSGS', 'LAST', 'TEXT'] as const;

/** Thread column widths for these threads: the thread id in full when the row has room (the text gives way). */
export function threadWidths(threads: readonly ThreadSummary[], width: number): number[] {
  // 10,000 threads: the id column is sized from the longest id, found without building a list of them.
  let longest = '';
  for (const t of threads) if (t.thread.length > longest.length) longest = t.thread;
  const idW = idWidth([clean(longest)], 14, width, 6 + 10 + 6 + 4 + 11 + 10 + 2 * 6);
  return [idW, ...THREAD_WIDTHS.slice(1)];
}

export function threadRow(t: DeskThread, width: number, widths: readonly number[] = THREAD_WIDTHS): string {
  return columns(
    [
      clean(t.thread),
      t.status,
      clean(t.owner ?? ''),
      t.unread ? String(t.unread) : '',
      String(t.messages),
      shortTime(t.lastAt ?? t.closedAt),
      clean(t.lastText ?? (t.status === 'closed' ? '(closed)' : '')),
    ],
    widths,
    width,
  );
}

export const THREAD_COLUMNS: readonly SortColumn<DeskThread>[] = [
  { key: 't', name: 'thread', value: (t) => t.thread },
  { key: 's', name: 'state', value: (t) => t.status },
  { key: 'o', name: 'owner', value: (t) => t.owner ?? '' },
  { key: 'u', name: 'unread', value: (t) => t.unread, desc: true },
  { key: 'm', name: 'messages', value: (t) => t.messages, desc: true },
  { key: 'l', name: 'last', value: (t) => t.lastAt ?? t.closedAt, desc: true },
];

export const MESSAGE_COLUMNS: readonly SortColumn<ThreadMessage>[] = [
  { key: 't', name: 'time', value: (m) => m.sent ?? m.at },
  { key: 'd', name: 'direction', value: (m) => `${m.via} ${m.op}` },
  { key: 'f', name: 'from', value: (m) => m.senderDisplay ?? m.sender },
  { key: 'r', name: 'read', value: (m) => (m.unread ? 0 : m.read ? 2 : 1) },
];

/**
 * Column widths of a message row; the sender column narrows on small terminals, and grows on wide ones to the
 * longest sender of `messages`.
 */
export const messageWidths = (width: number, messages: readonly ThreadMessage[] = []): readonly number[] =>
  growWidths([11, 6, width < 100 ? 21 : 24, 6, 0], [0, 0, longestOf(messages.map(senderText)), 0, 0], width);
export const MESSAGE_HEADER = ['TIME', 'DIR', 'FROM', 'READ', 'TEXT'] as const;

/** Who sent a message: its display text, else its reference. */
export const senderText = (m: ThreadMessage) => clean(m.senderDisplay ?? m.sender);

export function messageRow(m: ThreadMessage, width: number, widths: readonly number[] = messageWidths(width)): string {
  return columns(
    [
      shortTime(m.sent ?? m.at),
      `${m.via === 'received' ? 'in' : 'out'} ${m.op}`,
      senderText(m),
      m.via === 'pending' ? '?' : m.unread ? 'unread' : m.read ? 'read' : '',
      clean(m.text),
    ],
    widths,
    width,
  );
}

export const headerLine = (names: readonly string[], widths: readonly number[], width: number) => columns([...names], widths, width);

/** The detail lines of a message (cleaned), its text wrapped to the width. */
export function detailLines(m: DeskMessage | ThreadMessage, width: number): string[] {
  const by = 'operator' in m && m.operator !== undefined ? ` by ${m.operator}` : '';
  const dir = `${m.op} ${m.via === 'pending' ? 'sent' : m.via}${by} · ${m.from === 'portal' ? 'portal → practice' : 'practice → portal'}`;
  const state =
    m.via === 'pending'
      ? 'outcome unknown: no answer recorded (it may have reached them)'
      : m.via === 'received'
        ? m.read
          ? `read (marked ${m.readAt})`
          : 'unread'
        : m.read
          ? `read by them (${m.readAt})`
          : '';
  const when = m.sent ? `sent ${midTime(m.sent)}` : `recorded ${midTime(m.at)}`;
  const extra = [m.topic ? `topic ${m.topic}` : '', m.attachment ? `attachment ${m.attachment.title} (${m.attachment.contentType})` : '']
    .filter(Boolean)
    .join(' · ');
  return [
    clean([dir, state, when].filter(Boolean).join(' · ')),
    clean(
      `From ${m.senderDisplay ? `${m.senderDisplay} (${m.sender})` : m.sender} to ${m.recipientDisplay ? `${m.recipientDisplay} (${m.recipient})` : m.recipient} · subject ${m.subject}`,
    ),
    ...(extra ? [clean(extra)] : []),
    ...wrap(sanitize(m.text, true), Math.max(10, width - 2)).map((l) => `  ${l}`),
  ];
}

/**
 * `Chat › enc-100 · open · 2 messages · 1 unread · topic`: a thread id too long for the line is cut so that the
 * thread's state and counts stay in view (the topic goes first).
 */
export function threadHead(
  summary: (ThreadSummary & { owner?: string }) | undefined,
  thread: string,
  topic: string | undefined,
  width: number,
  viewers: readonly Viewer[] = [],
): string {
  const id = clean(summary?.thread ?? thread);
  if (!summary) return fit(`Chat › ${id}`, width);
  const owner = summary.owner !== undefined ? ` · ${clean(summary.owner)}'s` : ' · unassigned';
  const others = viewers.length ? ` · open by ${clean(viewers.map((v) => v.operator).join(', '))}` : '';
  const state = ` · ${summary.status} · ${summary.messages} message${summary.messages === 1 ? '' : 's'}${summary.unread ? ` · ${summary.unread} unread` : ''}${owner}${others}`;
  const room = Math.max(8, width - 'Chat › '.length - state.length);
  const head = `Chat › ${fit(id, room)}${state}`;
  const more = topic ? ` · ${clean(topic)}` : '';
  return fit(head.length + 4 < width ? `${head}${fit(more, width - head.length)}` : head, width);
}
