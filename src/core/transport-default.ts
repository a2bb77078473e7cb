/** The transport a client gets when none is given. */
import { Transport, type TransportOptions } from './transport.js';

export function createTransport(opts: TransportOptions = {}): Transport {
  return new Transport(opts);
}
