/**
 * The file engine's segments and summaries (src/core/threads/file-store.ts, segments.ts): a store that rolls over
 * to a new segment loses and reorders nothing, a receiver's index starts from the summaries without reading the
 * history (and falls back to reading when a summary is missing, damaged or stale), a store that is only written
 * to reads nothing, and health() says when the store cannot take writes.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  closeRecord,
  messageRecord,
  openThreadStore,
  type StoreRecord,
  type ThreadStoreOptions,
  threadStorePath,
} from '../../../src/core/threads/index.js';
import { segmentPath, segmentsFolder, summaryPath } from '../../../src/core/threads/segments.js';
import { chatMessage } from '../../helpers/chat.js';
import { tempDir } from '../../helpers/config.js';

const msg = (id: string, thread = 'enc-1', at?: string) =>
  messageRecord('C3', 'received', chatMessage(id, thread, `text of ${id}`, 'PractitionerRole/1001', 'Patient/pat-1'), at);
const close = (thread: string) =>
  closeRecord('received', thread, {
    resourceType: 'Encounter',
    id: thread,
    status: 'finished',
    identifier: [{ system: 'practice.example.encounter-id', value: thread }],
  });

/** Small segments: a message record is about 550 bytes, so a segment holds four. */
const SMALL = { segmentBytes: 2000 };

let dir: string;
let first: string;
beforeEach(() => {
  dir = tempDir('pdesk-segments-');
  first = threadStorePath(dir, 'p');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Append `n` messages m0…m{n-1} one by one (each its own write), in thread enc-{i % 3}; returns their ids. */
async function fill(n: number, o: ThreadStoreOptions = SMALL): Promise<string[]> {
  const store = openThreadStore(dir, 'p', o);
  const ids: string[] = [];
  const base = Date.parse('2026-03-01T10:00:00Z');
  for (let i = 0; i < n; i++) {
    ids.push(`m${i}`);
    await store.append([msg(`m${i}`, `enc-${i % 3}`, new Date(base + i * 1000).toISOString())]);
  }
  await store.close(); // waits for the summaries written in the background
  return ids;
}

const segmentFiles = () => readdirSync(segmentsFolder(first)).filter((f) => f.endsWith('.ndjson'));

describe('file store: segments', () => {
  it('starts a new segment once the last is full, and reads every record back in order', async () => {
    const ids = await fill(20);
    expect(segmentFiles().length).toBeGreaterThanOrEqual(4);
    // No segment grows far past the size: each batch that finds it full goes to the next.
    for (const f of segmentFiles()) expect(readFileSync(join(segmentsFolder(first), f)).length).toBeLessThan(2000 + 600);
    const store = openThreadStore(dir, 'p');
    const view = await store.load();
    expect(view.count).toBe(20);
    const all = ['enc-0', 'enc-1', 'enc-2'].flatMap((t) => view.messages(t)!.map((m) => m.id));
    expect(all.sort()).toEqual([...ids].sort());
    expect(view.messages('enc-0')!.map((m) => m.id)).toEqual(ids.filter((_, i) => i % 3 === 0));
    expect(store.warnings).toEqual([]);
    await store.close();
  });

  it('writes a summary of each sealed segment, and the index is read from the summaries, not from the history', async () => {
    await fill(20);
    const numbers = [1, ...segmentFiles().map((f) => Number(f.slice(0, 6)))].sort((a, b) => a - b);
    const sealed = numbers.slice(0, -1);
    for (const n of sealed) expect(existsSync(summaryPath(first, n)), `summary of segment ${n}`).toBe(true);
    // Scribble over the middle of segment 1 (same size, same end): a full read sees the damage, the index does not
    // read those bytes at all.
    const seg1 = readFileSync(first, 'utf8');
    const lines = seg1.split('\n');
    lines[1] = 'x'.repeat(lines[1]!.length);
    writeFileSync(first, lines.join('\n'));
    const full = openThreadStore(dir, 'p');
    await full.load();
    expect(full.warnings).toHaveLength(1);
    expect(await full.hasMessage('m1')).toBe(false);
    await full.close();

    const index = openThreadStore(dir, 'p');
    await index.loadIndex();
    expect(index.warnings).toEqual([]);
    expect(await index.hasMessage('m1')).toBe(true);
    expect(await index.threadOfMessage('m19')).toBe('enc-1');
    expect(await index.hasMessage('m20')).toBe(false);
    expect(index.view.count).toBe(0); // the history was not loaded
    await index.close();
  });

  it('reads a segment whose summary is missing, damaged or stale, and writes it again when it may write', async () => {
    await fill(12);
    const s1 = summaryPath(first, 1);
    const good = readFileSync(s1, 'utf8');
    const stale = good.replace(/"check":"[0-9a-f]+"/, '"check":"0000"'); // as if the segment were another file now
    const torn = good.replace(/"threadOf":\[[^\]]*\]/, '"threadOf":[0]'); // arrays that do not agree
    for (const damage of ['', '{"v":1', stale, torn]) {
      writeFileSync(s1, damage);
      const reader = openThreadStore(dir, 'p');
      await reader.loadIndex();
      expect(await reader.hasMessage('m0')).toBe(true);
      expect(await reader.hasMessage('mX')).toBe(false);
      await reader.close();
      expect(readFileSync(s1, 'utf8')).toBe(damage); // a reader writes nothing
    }
    const writer = openThreadStore(dir, 'p');
    await writer.prepare();
    await writer.loadIndex();
    await writer.close();
    expect(JSON.parse(readFileSync(s1, 'utf8'))).toMatchObject({
      v: 1,
      ids: ['m0', 'm1', 'm2', 'm3'],
      threads: ['enc-0', 'enc-1', 'enc-2'],
    });
  });

  it('a store from before segments (one file larger than a segment): the index of a writer summarises it for the next start', async () => {
    await fill(12, { segmentBytes: 1_000_000 }); // one file of about 6.6 KB, more than SMALL's segment
    expect(existsSync(segmentsFolder(first))).toBe(false);
    const listen = openThreadStore(dir, 'p', SMALL);
    await listen.prepare();
    await listen.loadIndex();
    await listen.close();
    expect(JSON.parse(readFileSync(summaryPath(first, 1), 'utf8'))).toMatchObject({ bytes: readFileSync(first).length });
    const lines = readFileSync(first, 'utf8').split('\n');
    lines[1] = 'x'.repeat(lines[1]!.length); // same size, same end: only a reader of the bytes would see it
    writeFileSync(first, lines.join('\n'));
    const next = openThreadStore(dir, 'p', SMALL);
    await next.loadIndex();
    expect(next.warnings).toEqual([]);
    expect(await next.hasMessage('m1')).toBe(true);
    await next.close();
  });

  it('in the index as in the view, the first record of a message id counts, across segments and summaries', async () => {
    const store = openThreadStore(dir, 'p', SMALL);
    for (const r of [msg('dup', 'enc-first'), msg('a'), msg('b'), msg('c'), msg('dup', 'enc-later'), msg('d'), msg('e'), msg('f')])
      await store.append([r]);
    await store.append([msg('dup', 'enc-last')]);
    await store.close();
    expect(segmentFiles().length).toBeGreaterThanOrEqual(2);
    const index = openThreadStore(dir, 'p');
    expect(await index.threadOfMessage('dup')).toBe('enc-first');
    const full = openThreadStore(dir, 'p');
    expect((await full.load()).threadOfMessage('dup')).toBe('enc-first');
    await index.close();
    await full.close();
  });

  it('reads what a late writer appended to a segment after its summary', async () => {
    await fill(12);
    appendFileSync(first, `${JSON.stringify(msg('late', 'enc-9'))}\n${JSON.stringify(close('enc-9'))}\n`);
    const store = openThreadStore(dir, 'p');
    await store.loadIndex();
    expect(await store.hasMessage('late')).toBe(true);
    expect(await store.isClosed('enc-9')).toBe(true);
    await store.close();
  });

  it('two writers sharing a store across a roll-over lose nothing and follow each other to the new segment', async () => {
    const a = openThreadStore(dir, 'p', SMALL);
    const b = openThreadStore(dir, 'p', SMALL);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      ids.push(`a${i}`, `b${i}`);
      await Promise.all([a.append([msg(`a${i}`)]), b.append([msg(`b${i}`)])]);
    }
    await a.close();
    await b.close();
    const files = segmentFiles().map((f) => readFileSync(join(segmentsFolder(first), f)).length);
    // Both followed the last segment: only it may be short; every sealed one reached the size.
    expect(files.slice(0, -1).every((size) => size >= 2000)).toBe(true);
    const store = openThreadStore(dir, 'p');
    const view = await store.load();
    expect(
      view
        .messages('enc-1')!
        .map((m) => m.id)
        .sort(),
    ).toEqual(ids.sort());
    expect(store.warnings).toEqual([]);
    await store.close();
  });

  it('a crash that tore the last line of a full segment: the next writer ends it before it starts the next segment', async () => {
    await fill(3);
    const torn = JSON.stringify(msg('torn'));
    appendFileSync(first, torn.slice(0, 300)); // now past 2000 bytes, and not ending in a newline
    const writer = openThreadStore(dir, 'p', SMALL);
    await writer.append([msg('after')]);
    await writer.close();
    expect(existsSync(segmentPath(first, 2))).toBe(true);
    expect(readFileSync(first, 'utf8')).toMatch(/"kind":"repair".*\n$/);
    const store = openThreadStore(dir, 'p');
    await store.load();
    expect(store.messages('enc-1')!.map((m) => m.id)).toEqual(['m1', 'after']);
    expect(store.warnings).toEqual([]);
    await store.close();
  });

  it('a receiver index follows appends of its own and of other processes, into new segments too', async () => {
    const receiver = openThreadStore(dir, 'p', SMALL);
    await receiver.prepare();
    await receiver.loadIndex();
    const seen: StoreRecord[] = [];
    receiver.watch((r) => seen.push(...r));
    await receiver.append([msg('own')]);
    expect(await receiver.hasMessage('own')).toBe(true);
    const other = openThreadStore(dir, 'p', SMALL);
    for (let i = 0; i < 10; i++) await other.append([msg(`o${i}`)]);
    await other.append([close('enc-7')]);
    await other.close();
    await expect.poll(() => receiver.isClosed('enc-7'), { timeout: 3000 }).toBe(true);
    expect(await receiver.hasMessage('o0')).toBe(true);
    // The watchers hear of the other process's records on their own schedule (a file event), not when a query reads.
    await expect.poll(() => seen.map((r) => (r.kind === 'message' ? r.id : r.kind)), { timeout: 3000 }).toContain('close');
    expect(seen.map((r) => (r.kind === 'message' ? r.id : r.kind))).toContain('o9');
    await receiver.close();
  });
});

describe('file store: reading only what is needed', () => {
  it('a store that is only written to (chat send) reads nothing of the history', async () => {
    const path = threadStorePath(dir, 'p');
    await fill(2, {});
    appendFileSync(path, 'not a record\n');
    const writer = openThreadStore(dir, 'p');
    await writer.append([msg('new')]);
    expect(writer.warnings).toEqual([]); // the bad line was never read
    expect(writer.view.count).toBe(0);
    await writer.close();
  });

  it('load() after loadIndex() reads the whole history', async () => {
    await fill(10);
    const store = openThreadStore(dir, 'p');
    await store.loadIndex();
    expect(store.view.count).toBe(0);
    expect((await store.load()).count).toBe(10);
    expect(await store.hasMessage('m9')).toBe(true);
    await store.close();
  });
});

describe('file store: health', () => {
  it('is ok when it can write, not when its file was removed, a write failed or it is closed', async () => {
    const store = openThreadStore(dir, 'p');
    await store.prepare();
    expect(await store.health()).toEqual([{ name: 'store', ok: true, detail: 'writable, files: 1' }]);
    rmSync(first);
    expect(await store.health()).toMatchObject([{ name: 'store', ok: false, detail: expect.stringMatching(/cannot be found|removed/) }]);
    await store.close();
    expect(await store.health()).toMatchObject([{ name: 'store', ok: false, detail: 'the thread store is closed' }]);
    expect(JSON.stringify(await store.health())).not.toContain(dir); // no paths in what /healthz shows
  });
});
