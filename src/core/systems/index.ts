/**
 * Every profile at a glance (the TUI's Systems screen): reachability and latency of each party (probe.ts,
 * decisions.md §13), unread and open chats of its thread store and uncertain bulk rows (local.ts), kept
 * current by a monitor (monitor.ts).
 */
export * from './probe.js';
export * from './local.js';
export * from './monitor.js';
