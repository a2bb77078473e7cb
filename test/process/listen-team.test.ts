/**
 * `pdesk listen` on the team store (a real PostgreSQL, PDESK_STORE_URL), as processes: two listeners serve one
 * endpoint against one database; a push is acknowledged once its transaction committed, a repeated push is stored
 * once and acknowledged by each listener, a message to a thread closed through the other listener is refused; one
 * listener killed with SIGKILL while 16 senders push through both loses no acknowledged push; /healthz names the
 * database and says when it cannot be reached; a database that cannot be reached at the start exits 5 without
 * printing the password.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openPgStore } from '../../src/core/store/pg/index.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { chatMessage } from '../helpers/chat.js';
import { runCli, tempDir, writeProfiles } from '../helpers/cli.js';
import { type ListenProcess, startListen } from '../helpers/listen.js';
import { clusterForFile, pgInstalled } from '../helpers/pg.js';

const pg = clusterForFile();

const chat = (id: string, thread: string, text: string) => chatMessage(id, thread, text, 'PractitionerRole/1001', 'Patient/pat-1');
const encounter = (id: string) => ({
  resourceType: 'Encounter',
  id,
  status: 'finished',
  identifier: [{ system: 'practice.example.encounter-id', value: id }],
});

async function call(url: string, method: string, body: unknown) {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/fhir+json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe.skipIf(!pgInstalled)('pdesk listen on the team store', () => {
  let dir: string;
  let url: string;
  const listeners: ListenProcess[] = [];
  const start = async (args: string[] = ['--json']) => {
    const l = await startListen(dir, args, { PDESK_STORE_URL: url, PDESK_OPERATOR: 'listener' });
    listeners.push(l);
    return l;
  };
  beforeAll(async () => {
    dir = tempDir('pdesk-listen-team-');
    writeProfiles(dir, [sandboxProfile('http://127.0.0.1:9')]);
    url = await pg().createDatabase();
  });
  afterAll(async () => {
    for (const l of listeners) await l.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  /** The ids of the messages the database holds for the profile. */
  async function storedIds(): Promise<Set<string>> {
    const store = openPgStore(url);
    try {
      const ids = new Set<string>();
      for (const t of await store.listThreads('sandbox')) for (const m of (await store.messages('sandbox', t.thread)) ?? []) ids.add(m.id);
      return ids;
    } finally {
      await store.close();
    }
  }

  it('two listeners on one database: a repeated push is stored once and acknowledged by each; a close through one holds for the other', async () => {
    const a = await start();
    const b = await start(['--output', 'table']);
    await vi.waitFor(() => expect(b.stderr()).toMatch(/Team store: postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\//));
    expect(b.stderr()).not.toContain(pg().password);
    const m = chat('dup-1', 'enc-1', 'hello');
    expect((await call(`${a.url}/portal/Communication`, 'POST', m)).status).toBe(201);
    expect((await call(`${b.url}/portal/Communication`, 'POST', m)).status).toBe(200);
    expect((await call(`${a.url}/portal/Communication`, 'POST', m)).status).toBe(200);
    // The same new push at both at once: stored once, both acknowledge it.
    const racing = chat('dup-2', 'enc-1', 'twice at once');
    const both = await Promise.all([a, b].map((l) => call(`${l.url}/portal/Communication`, 'POST', racing)));
    expect(both.map((r) => r.status).sort()).toEqual([200, 201]);
    // Closed through A: B refuses a new message to it.
    expect((await call(`${a.url}/portal/Encounter/enc-1`, 'PUT', encounter('enc-1'))).status).toBe(200);
    const late = await call(`${b.url}/portal/Communication`, 'POST', chat('late', 'enc-1', 'too late'));
    expect(late.status).toBe(409);
    expect(late.body.issue[0].code).toBe('conflict');
    const store = openPgStore(url);
    try {
      expect((await store.messages('sandbox', 'enc-1'))?.map((x) => x.id)).toEqual(['dup-1', 'dup-2']);
      expect(await store.thread('sandbox', 'enc-1')).toMatchObject({ status: 'closed', messages: 2 });
    } finally {
      await store.close();
    }
    // Each listener printed only what it stored.
    const printedA = (await a.waitForLines(2)).map((l) => JSON.parse(l));
    expect(printedA.map((r) => `${r.op} ${r.kind} ${r.id ?? r.thread}`)).toContain('C3 message dup-1');
    expect(a.lines.concat(b.lines).filter((l) => l.includes('dup-1'))).toHaveLength(1);
  });

  it('/healthz names the database check and says it is reachable', async () => {
    const l = listeners[0] ?? (await start());
    const res = await fetch(`${l.url}/healthz`);
    const body = (await res.json()) as { ok: boolean; checks: Array<{ name: string; ok: boolean; detail: string }> };
    expect(res.status).toBe(200);
    expect(body.checks.map((c) => [c.name, c.ok])).toEqual([
      ['listen', true],
      ['database', true],
    ]);
    expect(JSON.stringify(body)).not.toContain(pg().password);
  });

  it('kill -9 of one listener while 16 senders push through both loses no acknowledged push', async () => {
    const a = await start();
    const b = await start();
    const acked: string[] = [];
    const total = 800;
    let next = 0;
    let killed = false;
    const sender = async (k: number) => {
      while (next < total) {
        const i = next++;
        const id = `k-${i}`;
        const body = chat(id, `enc-k${i % 17}`, `message ${id}`);
        // Round robin, as a load balancer would; a push that got no answer goes to the other listener.
        const order = (i + k) % 2 === 0 ? [a, b] : [b, a];
        for (const l of order) {
          try {
            const r = await call(`${l.url}/portal/Communication`, 'POST', body);
            if (r.status === 201 || r.status === 200) acked.push(id);
            break;
          } catch {
            /* no answer: not acknowledged by this one */
          }
        }
        if (!killed && acked.length >= 200) {
          killed = true;
          a.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, (_, k) => sender(k)));
    expect(killed).toBe(true);
    expect(await a.stop('SIGKILL')).toBe(137);
    expect(acked.length).toBeGreaterThanOrEqual(total - 16);
    const stored = await storedIds();
    expect(acked.filter((id) => !stored.has(id))).toEqual([]);
    // The survivor still takes pushes.
    expect((await call(`${b.url}/portal/Communication`, 'POST', chat('after-kill', 'enc-z', 'still here'))).status).toBe(201);
  }, 120_000);

  it('a database that cannot be reached at the start exits 5, naming the URL without its password', async () => {
    const r = await runCli(['listen', '--port', '0'], {
      configDir: dir,
      env: { PDESK_STORE_URL: 'postgres://alice:Sekr3t-pw@127.0.0.1:1/pdesk' },
    });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('postgres://alice:***@127.0.0.1:1/pdesk');
    expect(r.stderr).not.toContain('Sekr3t-pw');
  });

  it('/healthz says 503 once the database is gone, naming the database check', async () => {
    const l = await start();
    await pg().stop();
    const res = await fetch(`${l.url}/healthz`);
    const body = (await res.json()) as { ok: boolean; checks: Array<{ name: string; ok: boolean; detail: string }> };
    expect(res.status).toBe(503);
    expect(body.ok).toBe(false);
    expect(body.checks.find((c) => c.name === 'database')).toMatchObject({ ok: false });
    expect(body.checks.find((c) => c.name === 'listen')).toMatchObject({ ok: true });
    // A push now is not acknowledged.
    const r = await call(`${l.url}/portal/Communication`, 'POST', chat('no-db', 'enc-n', 'lost?'));
    expect(r.status).toBe(500);
  }, 30_000);
});
