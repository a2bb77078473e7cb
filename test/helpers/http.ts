/**
 * A stub HTTP server on port 0 for the cases the sandbox cannot produce (a given status, a reset, no answer).
 * It records every request and answers with `handler` (`n` is the 1-based request count); servers made here
 * are closed after each test of the file that imports this helper.
 */
import { type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface StubRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type StubHandler = (req: IncomingMessage, res: ServerResponse, info: { body: string; n: number }) => void;

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

/** Close this (a server, a client, a transport) after the current test. */
export function closeAfterEach<T extends { close(): Promise<void> }>(x: T): T {
  open.push(x);
  return x;
}

/** Listen on port 0 of 127.0.0.1, close (dropping kept-alive connections) after the current test; the origin. */
export async function listening(server: Server, scheme: 'http' | 'https' = 'http'): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closeAfterEach({
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
  return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function stubServer(handler: StubHandler): Promise<{ url: string; received: StubRequest[]; close(): Promise<void> }> {
  const received: StubRequest[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d) => (body += d));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      handler(req, res, { body, n: received.length });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const s = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  return closeAfterEach(s);
}
