/** The desk store's clocks, the same for both engines (docs/decisions.md §17). */

/** A heartbeat older than this no longer counts as having the thread open. */
export const PRESENCE_TTL_MS = 10_000;
/** How often an open thread's heartbeat is sent (a third of the TTL: one lost heartbeat is not an absence). */
export const PRESENCE_HEARTBEAT_MS = 3_000;
/** Presence older than this is removed (a desk that died without leaving). */
export const PRESENCE_FORGET_MS = 3_600_000;
/** How long a reply claim holds off other operators by default (longer than any request's deadline). */
export const REPLY_HOLD_MS = 120_000;
