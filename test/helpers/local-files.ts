/** Local files for the Systems and X-ray tests: a thread store with records, a journal with rows in given states. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildChatMessage, buildEncounterClose } from '../../src/core/api/chat.js';
import { closeRecord, messageRecord, openThreadStore, readRecord } from '../../src/core/threads/index.js';
import { Profile } from '../../src/core/profile/schema.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';

const profile = Profile.parse(sandboxProfile('http://127.0.0.1:9'));

/** A store with `threads` open chats, each holding one received message (unread unless `read`), and one closed chat. */
export async function writeStore(dir: string, name: string, o: { open: number; read?: number }): Promise<void> {
  const store = openThreadStore(dir, name);
  const records = [];
  for (let i = 0; i < o.open; i++) {
    const m = buildChatMessage(profile, {
      thread: `enc-${i}`,
      text: `hello ${i}`,
      sender: 'PractitionerRole/1001',
      recipient: 'Patient/pat-1',
      subject: 'Patient/pat-1',
    });
    records.push(messageRecord('C3', 'received', m));
    if (i < (o.read ?? 0))
      records.push(
        readRecord(
          'sent',
          m.id,
          [{ op: 'add', path: '/recipient/0/extension', value: { url: 'x', valueDateTime: '2026-01-01T10:00:00' } }],
          `enc-${i}`,
        ),
      );
  }
  records.push(closeRecord('received', 'enc-closed', buildEncounterClose(profile, 'enc-closed')));
  await store.append(records);
  await store.close();
}

/** A bulk-send journal of `name` with rows in these states (`sending` with no later record is uncertain). */
export function writeJournal(dir: string, name: string, states: string[], file = 'people.csv-1'): string {
  mkdirSync(join(dir, 'journals', name), { recursive: true });
  const header = {
    journal: 'pdesk-notifications',
    version: 1,
    template: 't1',
    emailColumn: 'email',
    csv: '/tmp/x.csv',
    created: '2026-01-01T00:00:00Z',
  };
  const rows = states.map((state, i) =>
    JSON.stringify({ row: i + 1, hash: '0123456789abcdef', state, ...(state === 'ok' ? { status: 201 } : {}) }),
  );
  const path = join(dir, 'journals', name, `${file}.journal.ndjson`);
  writeFileSync(path, [JSON.stringify(header), ...rows, ''].join('\n'));
  return path;
}
