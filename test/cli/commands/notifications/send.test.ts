/**
 * `pdesk notifications send` (C5), one notification: the body the portal receives (decisions.md §9), the
 * output, `--body`, `--dry-run`, and bad input refused with exit 2 before anything is sent.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Env, run as runPdesk, tempDir, withSandbox, writeProfiles } from '../../../helpers/run.js';

let env: Env;
beforeAll(async () => {
  env = await withSandbox();
});
afterAll(async () => {
  await env.close();
});
beforeEach(() => {
  env.sandbox.received.length = 0;
  env.sandbox.state.notifications.length = 0;
});

const posts = () => env.sandbox.received.filter((r) => r.method === 'POST' && r.path === '/portal/Communication');

describe('notifications send --email', () => {
  it('sends the notification Communication of decisions.md §9 and prints the server answer', async () => {
    const r = await env.run([
      'notifications',
      'send',
      '--email',
      'jane@example.org',
      '--topic',
      'Lab results',
      '--text',
      'Your results are in.',
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(posts()).toHaveLength(1);
    const req = posts()[0]!;
    expect(req.headers['content-type']).toBe('application/fhir+json');
    expect(req.body).toEqual({
      resourceType: 'Communication',
      contained: [{ resourceType: 'Patient', id: 'p1', telecom: [{ system: 'email', value: 'jane@example.org' }] }],
      recipient: [{ reference: '#p1' }],
      topic: { text: 'Lab results' },
      status: 'completed',
      category: [{ coding: [{ system: 'portal.example.communication-category', code: 'notification' }] }],
      payload: [{ contentString: 'Your results are in.' }],
    });
    expect(env.sandbox.state.notifications).toHaveLength(1);
    const out = r.json();
    expect(out.resourceType).toBe('Communication');
    expect(out.id).toBe(env.sandbox.state.notifications[0]!.id);
    expect(out.contained[0].telecom[0].value).toBe('jane@example.org');
  });

  it('a bad email address exits 2 naming --email, and nothing is sent', async () => {
    const r = await env.run(['notifications', 'send', '--email', 'not-an-address', '--topic', 't', '--text', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--email must be an email address, not "not-an-address".');
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(posts()).toHaveLength(0);
  });

  it('missing --text exits 2 naming it, and nothing is sent', async () => {
    const r = await env.run(['notifications', 'send', '--email', 'a@example.org', '--topic', 't']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--text is required');
    expect(posts()).toHaveLength(0);
  });

  it('bulk-only options without --csv exit 2', async () => {
    const r = await env.run(['notifications', 'send', '--email', 'a@example.org', '--topic', 't', '--text', 'x', '--concurrency', '4']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--concurrency goes with --csv');
    expect(posts()).toHaveLength(0);
  });

  it('--dry-run prints the request and sends nothing', async () => {
    const r = await env.run(['notifications', 'send', '--email', 'a@example.org', '--topic', 't', '--text', 'x', '--dry-run']);
    expect(r.code).toBe(0);
    const req = r.json();
    expect(req.method).toBe('POST');
    expect(req.url).toBe(`${env.sandbox.url}/portal/Communication`);
    expect(req.body.contained[0].telecom[0].value).toBe('a@example.org');
    expect(posts()).toHaveLength(0);
  });

  it('prints {"ok":true,"status":201} when the server answers without a body', async () => {
    // The sandbox always answers with the stored resource; a listener-style server may not. Simulate one with
    // a profile whose portal is a tiny server answering 201 with no body.
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.statusCode = 201;
        res.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    try {
      const dir = tempDir();
      writeProfiles(dir, [{ ...env.profile, portal: { baseUrl: `http://127.0.0.1:${port}/portal` } }]);
      const r = await runPdesk(['notifications', 'send', '--email', 'a@example.org', '--topic', 't', '--text', 'x', '--json'], {
        configDir: dir,
      });
      expect(r.code).toBe(0);
      expect(r.json()).toEqual({ ok: true, status: 201 });
    } finally {
      server.close();
    }
  });
});

describe('notifications send --body', () => {
  it('sends a complete notification as is after validation', async () => {
    const body = {
      resourceType: 'Communication',
      contained: [{ resourceType: 'Patient', id: 'pat', telecom: [{ system: 'email', value: 'b@example.org' }] }],
      recipient: [{ reference: '#pat' }],
      topic: { text: 'Reminder' },
      status: 'completed',
      category: [{ coding: [{ system: 'portal.example.communication-category', code: 'notification' }] }],
      payload: [{ contentString: 'See you tomorrow.' }],
      extra: 'kept',
    };
    const f = join(tempDir(), 'n.json');
    writeFileSync(f, JSON.stringify(body));
    const r = await env.run(['notifications', 'send', '--body', f, '--json']);
    expect(r.code).toBe(0);
    expect(posts()[0]!.body).toEqual(body);
  });

  it('an invalid body exits 2 naming the JSON path, nothing sent', async () => {
    const r = await env.run(['notifications', 'send', '--body', '-', '--json'], {
      input: JSON.stringify({ resourceType: 'Communication', status: 'completed' }),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/The request body is invalid at \$\.contained/);
    expect(posts()).toHaveLength(0);
  });

  it('--body with --email exits 2', async () => {
    const r = await env.run(['notifications', 'send', '--body', '-', '--email', 'a@example.org'], { input: '{}' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot be combined with --email');
    expect(posts()).toHaveLength(0);
  });
});
