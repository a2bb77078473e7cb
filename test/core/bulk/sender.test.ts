/**
 * A bulk send's way to the wire (src/core/bulk/sender.ts): each row's JSON text sent byte for byte through the
 * client's layers, a success answer left unparsed, an error read for its OperationOutcome, a redirect never
 * followed, the confirmation told what it asks for, audit intents written ahead and completions handed over.
 */
import { describe, expect, it } from 'vitest';
import { auditPath, readAudit } from '../../../src/core/audit.js';
import { BulkSender } from '../../../src/core/bulk/sender.js';
import { PdeskClient } from '../../../src/core/client.js';
import { ContractError, HttpError, RedirectError } from '../../../src/core/errors.js';
import { validateProfile } from '../../../src/core/profile/schema.js';
import { tempDir } from '../../helpers/config.js';
import { closeAfterEach, stubServer } from '../../helpers/http.js';
import { rejectionOf } from '../../helpers/errors.js';

function clientFor(url: string, o: ConstructorParameters<typeof PdeskClient>[1] = {}): PdeskClient {
  const profile = validateProfile(
    { name: 'acme', namespaces: { portal: 'p', practice: 'q' }, practice: { baseUrl: url }, portal: { baseUrl: url } },
    'test',
  );
  return closeAfterEach(new PdeskClient(profile, o));
}

const text = '{"resourceType":"Communication","note":"é \\" \\\\ \\u2028"}';
const noAudit = () => undefined;

const failure = (p: Promise<unknown>) => rejectionOf(p);

describe('BulkSender', () => {
  it('sends the JSON text byte for byte with the FHIR content type, and reads the status only', async () => {
    const s = await stubServer((_q, res) => res.writeHead(201, { 'content-type': 'application/fhir+json' }).end('{"id":"n1"}'));
    const sender = await BulkSender.open(clientFor(s.url), 'C5');
    expect(await sender.send(text, noAudit)).toEqual({ status: 201 });
    expect(s.received[0]).toMatchObject({ method: 'POST', url: '/Communication', body: text });
    expect(s.received[0]!.headers['content-type']).toBe('application/fhir+json');
  });

  it('a success body that is not an object or array is a ContractError naming the request; an empty one is fine', async () => {
    const s = await stubServer((_q, res, { n }) =>
      n === 1 ? res.writeHead(201, { 'content-type': 'text/html' }).end('<html>proxy</html>') : res.writeHead(201).end(),
    );
    const sender = await BulkSender.open(clientFor(s.url), 'C5');
    const e = await failure(sender.send(text, noAudit));
    expect(e).toBeInstanceOf(ContractError);
    expect(e.message).toContain('the body is not JSON (content-type text/html)');
    expect((e as ContractError).details).toContain(`request: C5 POST ${s.url}/Communication`);
    expect((await sender.send(text, noAudit)).status).toBe(201);
  });

  it('an error answer is read for its OperationOutcome', async () => {
    const s = await stubServer((_q, res) =>
      res
        .writeHead(422, { 'content-type': 'application/fhir+json' })
        .end(
          JSON.stringify({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'invalid', diagnostics: 'bad address' }] }),
        ),
    );
    const e = await failure((await BulkSender.open(clientFor(s.url), 'C5')).send(text, noAudit));
    expect(e).toBeInstanceOf(HttpError);
    expect((e as HttpError).details.join('\n')).toContain('error invalid: bad address');
  });

  it('a redirect is not followed: RedirectError, sent once', async () => {
    const s = await stubServer((_q, res) => void res.writeHead(308, { location: 'https://elsewhere.example/fhir/Communication' }).end());
    const e = await failure((await BulkSender.open(clientFor(s.url), 'C5')).send(text, noAudit));
    expect(e).toBeInstanceOf(RedirectError);
    expect((e as RedirectError).status).toBe(308);
    expect(s.received.map((q) => q.method)).toEqual(['POST']);
  });

  it('the confirmation hook is asked for every row, and reads the parsed body, what and where when it wants them', async () => {
    const s = await stubServer((_q, res) => res.writeHead(500).end());
    const seen: unknown[] = [];
    const c = clientFor(s.url, {
      beforeWrite: (w) => {
        seen.push(w.request.body, w.what, w.target);
        throw new Error('declined');
      },
    });
    expect((await failure((await BulkSender.open(c, 'C5')).send(text, noAudit))).message).toBe('declined');
    expect(seen).toEqual([JSON.parse(text), 'C5 (POST /Communication)', s.url]);
    expect(s.received).toEqual([]);
  });

  it("writes the rows' audit intents ahead and hands each completion over at the answer", async () => {
    const dir = tempDir();
    const s = await stubServer((_q, res) => res.writeHead(201, { location: `${'x'}/Communication/srv-1` }).end());
    const sender = await BulkSender.open(clientFor(s.url, { audit: { dir } }), 'C5');
    const intend = await sender.intents();
    const intent = intend!(text);
    await intent.durable;
    let durable: Promise<void> | undefined;
    await sender.send(text, (p) => (durable = p), intent);
    expect(durable).toBeInstanceOf(Promise);
    await durable;
    const records = readAudit(auditPath(dir, 'acme')).records;
    expect(records.map((r) => [r.op, r.status, r.id])).toEqual([['C5', 201, 'srv-1']]);
    expect(records[0]!.body).toEqual(JSON.parse(text));
  });

  it('without an audit trail there are no intents to write ahead', async () => {
    const s = await stubServer((_q, res) => res.writeHead(201).end());
    expect(await (await BulkSender.open(clientFor(s.url), 'C5')).intents()).toBeUndefined();
  });
});
