/**
 * Change events of the team store (src/core/store/pg/notify.ts): a change committed by one desk reaches another
 * desk's subscription over LISTEN/NOTIFY, only after its commit; a dropped connection comes back with a `resync`;
 * the fall-back poll sees what no event told, and never runs more than once a minute.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeEvent, encodeEvent, MAX_PAYLOAD_BYTES, POLL_MS } from '../../../../src/core/store/pg/notify.js';
import { type PgDeskStore, openPgStore } from '../../../../src/core/store/pg/index.js';
import type { DeskEvent, DeskRecord, Subscription } from '../../../../src/core/store/types.js';
import { chatMessage } from '../../../helpers/chat.js';
import { pgInstalled, clusterForFile } from '../../../helpers/pg.js';

const pg = clusterForFile();

const msg = (id: string, thread: string): DeskRecord => ({
  kind: 'message',
  op: 'C1',
  at: new Date().toISOString(),
  thread,
  id,
  resource: chatMessage(id, thread, 'hi', 'Patient/pat-1', 'PractitionerRole/1001'),
});

describe('event payloads', () => {
  it('round-trip, and one too large for NOTIFY becomes a resync', () => {
    const e: DeskEvent = { kind: 'message', profile: 'p', thread: 'enc-1', rev: 42, id: 'm1' };
    expect(decodeEvent(encodeEvent(e))).toEqual(e);
    expect(decodeEvent(encodeEvent({ kind: 'presence', profile: 'p', thread: 't' }))).toEqual({
      kind: 'presence',
      profile: 'p',
      thread: 't',
    });
    const huge = encodeEvent({ kind: 'message', profile: 'p', thread: 'ä'.repeat(5000), rev: 1 });
    expect(Buffer.byteLength(huge)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    expect(decodeEvent(huge)).toEqual({ kind: 'resync', why: 'overflow' });
    expect(decodeEvent('not json')).toBeUndefined();
    expect(decodeEvent('{"k":"something-new","p":"p","t":"t"}')).toBeUndefined();
  });
});

describe.skipIf(!pgInstalled)('change events between desks', () => {
  let url: string;
  let writer: PgDeskStore;
  let reader: PgDeskStore;
  const subs: Subscription[] = [];
  beforeAll(async () => {
    url = await pg().createDatabase();
    writer = openPgStore(url, { applicationName: 'pdesk-writer' });
    reader = openPgStore(url, { applicationName: 'pdesk-reader' });
    await writer.open();
  });
  afterEach(async () => {
    for (const s of subs.splice(0)) await s.close();
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await writer?.close();
    await reader?.close();
  });

  function collect(profile: string | undefined, o = {}) {
    const events: DeskEvent[] = [];
    return {
      events,
      start: async () => {
        subs.push(await reader.subscribe(profile, (e) => events.push(e), o));
      },
    };
  }

  it("a push, an assignment, a reply claim and presence recorded by one desk reach the other desk's subscription", async () => {
    const c = collect('n1');
    await c.start();
    await writer.recordReceived('n1', msg('m1', 'enc-1'));
    await vi.waitFor(() => expect(c.events).toContainEqual(expect.objectContaining({ kind: 'message', thread: 'enc-1', id: 'm1' })));
    await writer.assign('n1', 'enc-1', { to: 'alice', by: 'alice' });
    await writer.heartbeat('n1', 'enc-1', { operator: 'alice', session: 's1' });
    await writer.recordReceived('n1', msg('m1', 'enc-1')); // a repeat: no event
    const t = await writer.thread('n1', 'enc-1');
    await vi.waitFor(() => expect(c.events.map((e) => e.kind)).toEqual(['message', 'assignment', 'presence']));
    // The rev of the last event is the thread's: a list refreshed with changedSince misses nothing.
    expect(
      c.events
        .filter((e) => 'rev' in e)
        .map((e) => (e as { rev: number }).rev)
        .at(-1),
    ).toBe(t!.rev);
  });

  it('only the subscribed profile, unless every profile was asked for', async () => {
    const mine = collect('n2');
    const all = collect(undefined);
    await mine.start();
    await all.start();
    await writer.recordReceived('other-profile', msg('x1', 'enc-x'));
    await writer.recordReceived('n2', msg('y1', 'enc-y'));
    await vi.waitFor(() => expect(mine.events).toHaveLength(1));
    await vi.waitFor(() => expect(all.events).toHaveLength(2));
    expect(mine.events[0]).toMatchObject({ profile: 'n2', thread: 'enc-y' });
  });

  it('nothing is delivered for a change that rolled back', async () => {
    const c = collect('n3');
    await c.start();
    await writer.sql
      .begin(async (tx) => {
        await tx`select pg_notify('pdesk', ${encodeEvent({ kind: 'message', profile: 'n3', thread: 't', rev: 1 })})`;
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await writer.recordReceived('n3', msg('z1', 'enc-z'));
    await vi.waitFor(() => expect(c.events).toHaveLength(1));
    expect(c.events[0]).toMatchObject({ thread: 'enc-z' });
  });

  it('a listening connection that drops comes back, says resync, and delivers what follows', async () => {
    const c = collect('n4');
    await c.start();
    const killed = await writer.sql`select pg_terminate_backend(pid) as ok from pg_stat_activity
      where application_name = 'pdesk-reader' and query ilike 'listen%'`;
    expect(killed.length).toBe(1);
    await vi.waitFor(() => expect(c.events).toContainEqual({ kind: 'resync', why: 'reconnected' }), { timeout: 15_000, interval: 50 });
    await writer.recordReceived('n4', msg('after', 'enc-after'));
    await vi.waitFor(() => expect(c.events).toContainEqual(expect.objectContaining({ kind: 'message', id: 'after' })), { timeout: 5_000 });
  });

  it('the poll says resync when something changed that no event told, and nothing otherwise', async () => {
    const c = collect('n5');
    await writer.recordReceived('n5', msg('p1', 'enc-p'));
    await c.start();
    const sub = subs.at(-1)!;
    // p1's own event may still reach the new subscription on a busy machine (its connection listened already for an
    // earlier one): what is asserted here is what the poll says.
    const resyncs = () => c.events.filter((e) => e.kind === 'resync');
    await sub.poll();
    expect(resyncs()).toEqual([]);
    // A change committed without its NOTIFY (as if the event was lost on the way).
    await writer.sql`update pdesk.threads set rev = nextval('pdesk.rev') where profile = 'n5'`;
    await sub.poll();
    expect(resyncs()).toEqual([{ kind: 'resync', why: 'poll' }]);
    await sub.poll();
    expect(resyncs()).toHaveLength(1);
  });

  it('polls no more often than once a minute, whatever it is asked', async () => {
    const spy = vi.spyOn(globalThis, 'setInterval');
    const c = collect('n6', { pollMs: 1000 });
    await c.start();
    const delays = spy.mock.calls.map((call) => call[1]);
    expect(delays).toContain(POLL_MS);
    expect(delays).not.toContain(1000);
  });
});
