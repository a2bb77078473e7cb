/**
 * The local thread store: every chat message pdesk sends (C1, C3), every push it receives, every read marker
 * (C2), close (C4) and notification (C5), grouped by encounter id. Record format: records.ts; the interface:
 * types.ts; the file engine: file-store.ts, its segments and summaries: segments.ts; the in-memory view
 * (threads, messages, unread counts): view.ts.
 *
 *   const store = openThreadStore(configDir(), profile.name, { onWarning });
 *   const view = await store.load();            // view.threads (newest first), view.messages(thread)
 *   const stop = store.watch((records) => …);   // new records: this process's after fsync, others' via fs.watch
 *   await store.append([messageRecord('C1', 'sent', communication)]);   // resolves after fsync
 *   await store.loadIndex();                    // a receiver: hasMessage(id), isClosed(thread), without the history
 *   await store.close();
 */
export * from './records.js';
export * from './store.js';
export * from './view.js';
export { describeRecord } from './describe.js';
export { SEGMENT_BYTES } from './segments.js';
