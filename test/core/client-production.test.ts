/**
 * The production guard is the client's, below every face: a production profile's client sends no write unless the
 * face gave it a confirmation hook (`beforeWrite`), so no command or screen can skip the confirmation. Reads need
 * none. The hook is told the call's abort signal (the TUI recognises the tasks the operator confirmed by it).
 */
import { describe, expect, it } from 'vitest';
import { PdeskClient, type WriteDescription } from '../../src/core/client.js';
import { ExitCode, type PdeskError, UsageError } from '../../src/core/errors.js';
import { validateProfile } from '../../src/core/profile/schema.js';
import { closeAfterEach, stubServer } from '../helpers/http.js';

function clientFor(url: string, environment: string | undefined, o: ConstructorParameters<typeof PdeskClient>[1] = {}): PdeskClient {
  const profile = validateProfile(
    {
      name: 'amsterdam',
      ...(environment ? { environment } : {}),
      namespaces: { portal: 'p', practice: 'q' },
      practice: { baseUrl: url },
      portal: { baseUrl: url },
    },
    'test',
  );
  return closeAfterEach(new PdeskClient(profile, o));
}

const answer = (_q: unknown, res: import('node:http').ServerResponse) =>
  res.writeHead(201, { 'content-type': 'application/fhir+json' }).end('{"resourceType":"Communication","id":"n1"}');

describe('a production profile', () => {
  it('without a confirmation hook: no write is sent (exit 2, naming the profile and the operation); reads are', async () => {
    const s = await stubServer(answer);
    for (const environment of ['production', 'PROD']) {
      const c = clientFor(s.url, environment);
      const e = await c.call('C5', { body: { resourceType: 'Communication' } }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(UsageError);
      expect((e as PdeskError).exitCode).toBe(ExitCode.usage);
      expect((e as Error).message).toBe(
        'Profile "amsterdam" is a production profile: C5 (POST /Communication) was not sent, as nothing here can confirm it.',
      );
      // `pdesk api` goes through the same gate.
      await expect(c.raw('DELETE', 'practice', '/Appointment/a1')).rejects.toThrow(/DELETE \/Appointment\/a1 was not sent/);
      await c.call('A2');
    }
    expect(s.received.map((r) => r.method)).toEqual(['GET', 'GET']);
  });

  it('with a hook: the hook decides, and it is told the call’s signal', async () => {
    const s = await stubServer(answer);
    const seen: Array<Pick<WriteDescription, 'what' | 'signal'>> = [];
    let allow = false;
    const c = clientFor(s.url, 'production', {
      beforeWrite: (w) => {
        seen.push({ what: w.what, signal: w.signal });
        if (!allow) throw new UsageError('not confirmed');
      },
    });
    const ctrl = new AbortController();
    await expect(c.call('C5', { body: {}, signal: ctrl.signal })).rejects.toThrow('not confirmed');
    expect(s.received).toEqual([]);
    allow = true;
    expect((await c.call('C5', { body: {}, signal: ctrl.signal })).status).toBe(201);
    expect(seen).toEqual([
      { what: 'C5 (POST /Communication)', signal: ctrl.signal },
      { what: 'C5 (POST /Communication)', signal: ctrl.signal },
    ]);
    expect(s.received.map((r) => r.method)).toEqual(['POST']);
  });

  it('any other environment needs no hook', async () => {
    const s = await stubServer(answer);
    for (const environment of ['test', 'preproduction', undefined])
      expect((await clientFor(s.url, environment).call('C5', { body: {} })).status).toBe(201);
    expect(s.received).toHaveLength(3);
  });
});
