/**
 * Which transport a client gets when none is given, chosen once per process by its entry point: `http`
 * (node:http, transport-http.ts) for a one-shot command, `pool` (undici, transport-pool.ts) for long-running
 * work. The default is `pool`, so whatever does not choose (the TUI, the sandbox, tests) keeps undici.
 */
import type { Transport, TransportOptions } from './transport.js';
import { HttpTransport } from './transport-http.js';
import { PoolTransport } from './transport-pool.js';

export type TransportKind = 'pool' | 'http';

let kind: TransportKind = 'pool';

export function setDefaultTransport(k: TransportKind): void {
  kind = k;
}

export function defaultTransport(): TransportKind {
  return kind;
}

export function createTransport(opts: TransportOptions = {}, k: TransportKind = kind): Transport {
  return k === 'http' ? new HttpTransport(opts) : new PoolTransport(opts);
}
