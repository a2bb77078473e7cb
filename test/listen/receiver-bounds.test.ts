/**
 * What `pdesk listen` does with a body it cannot take as JSON (issue 35, item 19): nested deeper than a request
 * body may be (src/core/json.ts, MAX_BODY_DEPTH) or not JSON at all, it answers 400 with an OperationOutcome naming
 * the path (a sender must not retry it), never 5xx, and stores nothing. And `chat show` of a store that holds a
 * message nested deeper than pdesk prints (written before the receiver refused such bodies) skips that message with
 * a warning instead of blaming "the server's answer".
 */
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { MAX_BODY_DEPTH, MAX_READ_DEPTH } from '../../src/core/json.js';
import { type MessageRecord, messageRecord, openThreadStore } from '../../src/core/threads/index.js';
import { startReceiver } from '../../src/listen/receiver.js';
import { tempDir, writeProfiles } from '../helpers/config.js';
import { run } from '../helpers/run.js';

const chat = (id: string, extra: string) =>
  `{"resourceType":"Communication","id":"${id}","identifier":[{"system":"portal.example.communication-id","value":"${id}"}],"status":"completed","payload":[{"contentString":"text of ${id}"}],"encounter":{"identifier":[{"system":"practice.example.encounter-id","value":"enc-1"}]},"recipient":[{"reference":"Patient/pat-1"}],"sender":[{"reference":"PractitionerRole/1001"}],"subject":[{"reference":"Patient/pat-1"}],"category":[{"coding":[{"system":"portal.example.communication-type","code":"chat"}]}]${extra}}`;
/** An unknown field whose value makes the whole body `levels` deep. */
const deepField = (levels: number) => `,"deep":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}`;

const closeAll: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closeAll.splice(0)) await c();
});

async function receiver() {
  const dir = tempDir('pdesk-bounds-');
  const store = openThreadStore(dir, 'desk');
  const r = await startReceiver({ port: 0, store });
  closeAll.push(() => r.close());
  const post = async (text: string) => {
    const res = await request(`${r.url}/practice/Communication`, {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json' },
      body: text,
    });
    return { status: res.statusCode, body: (await res.body.json()) as { issue?: Array<{ diagnostics: string; expression?: string[] }> } };
  };
  return { dir, store, post };
}

describe('pdesk listen: a body it cannot take as JSON', () => {
  it.each([[MAX_BODY_DEPTH + 1], [1_500], [5_000], [100_000]])(
    'a C1 nested %i levels deep is 400 naming the path and the bound, and nothing is stored',
    async (levels) => {
      const { store, post } = await receiver();
      const r = await post(chat('m-deep', deepField(levels)));
      expect(r.status).toBe(400);
      expect(r.body.issue![0]!.diagnostics).toBe(
        `The request body at $.deep[0][0][0][0][0]…[0]: the value is nested more than ${MAX_BODY_DEPTH} levels deep (pdesk reads at most ${MAX_BODY_DEPTH}).`,
      );
      await store.load();
      expect(store.view.hasMessage('m-deep')).toBe(false);
    },
  );

  it('a body that is not JSON is 400 naming line and column, without quoting it; one at the bound is stored', async () => {
    const { store, post } = await receiver();
    const bad = await post('root:x:0:0:root:/root:/bin/bash');
    expect(bad.status).toBe(400);
    expect(bad.body.issue![0]!.diagnostics).toBe('The request body at $: not valid JSON (unexpected character at line 1, column 1).');
    const ok = await post(chat('m-ok', deepField(MAX_BODY_DEPTH)));
    expect(ok.status).toBe(201);
    await store.load();
    expect(store.view.hasMessage('m-ok')).toBe(true);
  });
});

describe('chat show of a store holding a message nested deeper than pdesk prints', () => {
  it('skips that message with a warning naming it (exit 0), and shows the others; never "the server\'s answer"', async () => {
    const dir = tempDir('pdesk-bounds-');
    writeProfiles(dir, [
      {
        name: 'desk',
        namespaces: { portal: 'portal.example', practice: 'practice.example' },
        practice: { baseUrl: 'http://127.0.0.1:9' },
        portal: { baseUrl: 'http://127.0.0.1:9' },
      },
    ]);
    const store = openThreadStore(dir, 'desk');
    const ok = JSON.parse(chat('m-ok', '')) as MessageRecord['resource'];
    // Written as text: JSON.stringify cannot serialise it (the store of an older pdesk holds such lines).
    const deepLine = JSON.stringify(messageRecord('C1', 'received', JSON.parse(chat('m-deep', ',"deep":0')))).replace(
      '"deep":0',
      `"deep":${'['.repeat(MAX_READ_DEPTH + 500)}${']'.repeat(MAX_READ_DEPTH + 500)}`,
    );
    await store.append([messageRecord('C1', 'received', ok)]);
    const { appendFileSync } = await import('node:fs');
    appendFileSync(store.path, `${deepLine}\n`);
    await store.close();
    for (const format of ['--json', '--output=table']) {
      const r = await run(['chat', 'show', 'enc-1', format], { configDir: dir });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe(
        `pdesk: warning: message m-deep in the desk's store is nested more than ${MAX_READ_DEPTH - 2} levels deep; not shown.\n`,
      );
      expect(r.stdout).toContain('text of m-ok');
      expect(r.stdout).not.toContain('m-deep');
    }
  });
});
