/**
 * The local thread store: every chat message pdesk sends (C1, C3), every push it receives, every read marker
 * (C2), close (C4) and notification (C5), grouped by encounter id. Record format: records.ts; durability and
 * reading: store.ts; the in-memory view (threads, messages, unread counts): view.ts.
 */
export * from './records.js';
export * from './store.js';
export * from './view.js';
export { describeRecord } from './describe.js';
