/**
 * The profile-aware client (src/core/client.ts) and authentication (src/core/auth.ts) over real HTTP to a tiny
 * node:http server on port 0: what an error carries when a server echoes a credential back, and each auth kind.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PdeskClient } from '../src/core/client.js';
import { ContractError, HttpError } from '../src/core/errors.js';
import { validateProfile } from '../src/profiles/store.js';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

async function serve(handler: Handler) {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d) => (body += d));
    req.on('end', () => handler(req, body, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const s = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  open.push(s);
  return s;
}

function client(baseUrl: string, practice: Record<string, unknown> = {}) {
  const profile = validateProfile(
    { name: 't', namespaces: { portal: 'portal.test', practice: 'practice.test' }, practice: { baseUrl, ...practice }, portal: { baseUrl } },
    'test',
  );
  const c = new PdeskClient(profile);
  open.push(c);
  return c;
}

async function failure(p: Promise<unknown>): Promise<Error> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(Error);
  return e as Error;
}

describe('a credential the server echoes back is redacted in the error itself (the TUI shows these lines too)', () => {
  const TOKEN = 'echoed-bearer-token-4711';
  const auth = { type: 'bearer', token: TOKEN };

  it('in OperationOutcome diagnostics', async () => {
    const s = await serve((req, _b, res) => {
      res.writeHead(401, { 'content-type': 'application/fhir+json' });
      res.end(JSON.stringify({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'login', diagnostics: `unknown token ${req.headers.authorization}` }] }));
    });
    const e = await failure(client(s.url, { auth }).call('A2'));
    expect(e).toBeInstanceOf(HttpError);
    const text = [e.message, ...(e as HttpError).details].join('\n');
    expect(text).toContain('error login: unknown token Bearer ***');
    expect(text).not.toContain(TOKEN);
  });

  it('in a success body that is not JSON', async () => {
    const s = await serve((req, _b, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<p>hello ${req.headers.authorization}</p>`);
    });
    const e = await failure(client(s.url, { auth }).call('A2'));
    expect(e).toBeInstanceOf(ContractError);
    const text = [e.message, ...(e as ContractError).details].join('\n');
    expect(text).toContain('<p>hello Bearer ***</p>');
    expect(text).not.toContain(TOKEN);
  });
});

describe('a credential in a profile header', () => {
  const headers = { 'X-Auth-Token': 'header-token-0815', 'Ocp-Apim-Subscription-Key': 'sub-key-4242', 'X-Api-Version': '2.0.0' };

  it('is redacted under --dry-run (by the name of the header), and the other headers are shown', async () => {
    const profile = validateProfile(
      { name: 't', namespaces: { portal: 'p', practice: 'q' }, practice: { baseUrl: 'http://127.0.0.1:9', headers }, portal: { baseUrl: 'http://127.0.0.1:9' } },
      'test',
    );
    const c = new PdeskClient(profile, { dryRun: true });
    open.push(c);
    const e = (await failure(c.call('A2'))) as Error & { request: { headers: Record<string, string> } };
    expect(e.request.headers).toMatchObject({ 'X-Auth-Token': '***', 'Ocp-Apim-Subscription-Key': '***', 'X-Api-Version': '2.0.0' });
  });

  it('is redacted when a server echoes it back', async () => {
    const s = await serve((req, _b, res) => {
      res.writeHead(403, { 'content-type': 'text/plain' });
      res.end(`key ${req.headers['ocp-apim-subscription-key']} is not valid for ${req.headers['x-auth-token']}`);
    });
    const e = (await failure(client(s.url, { headers }).call('A2'))) as HttpError;
    expect(e.details[0]).toBe('key *** is not valid for ***');
  });
});
