/** Local counts of a profile (src/core/systems/local.ts): thread store and journals, read only and cached. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JournalCounter, journalFiles } from '../../../src/core/bulk/journals.js';
import { openPgStore } from '../../../src/core/store/pg/index.js';
import { LocalReader } from '../../../src/core/systems/local.js';
import { tempDir } from '../../helpers/config.js';
import { close, msg, read } from '../../helpers/desk.js';
import { clusterForFile, pgInstalled } from '../../helpers/pg.js';
import { writeJournal, writeStore } from '../../helpers/local-files.js';

describe('LocalReader', () => {
  it('counts unread messages, open chats and uncertain journal rows; later reads see what was appended', async () => {
    const dir = tempDir();
    await writeStore(dir, 'alpha', { open: 3, read: 1 });
    const journal = writeJournal(dir, 'alpha', ['sending', 'ok', 'failed', 'unknown']);
    const r = new LocalReader(dir);
    try {
      expect(await r.counts('alpha')).toEqual({ unread: 2, open: 3, threads: 4, uncertain: 2, failed: 1, warnings: [] });
      await writeStore(dir, 'alpha', { open: 1 }); // appends one more message to enc-0
      const again = await r.counts('alpha');
      expect(again.unread).toBe(3);
      expect(again.threads).toBe(4); // enc-0 again, and enc-closed closed again: the same threads
      expect(readFileSync(journal, 'utf8').split('\n')).toHaveLength(6); // nothing written to the journal
    } finally {
      await r.close();
    }
  });

  it('a profile with no store and no journals has zero counts and creates nothing', async () => {
    const dir = tempDir();
    const r = new LocalReader(dir);
    expect(await r.counts('beta')).toEqual({ unread: 0, open: 0, threads: 0, uncertain: 0, failed: 0, warnings: [] });
    await r.close();
    expect(journalFiles(dir, 'beta')).toEqual([]);
    expect(() => readFileSync(join(dir, 'threads', 'beta.ndjson'))).toThrow(/ENOENT/);
  });

  it('a journal that cannot be read is a warning, not a failure', async () => {
    const dir = tempDir();
    const path = writeJournal(dir, 'gamma', ['ok']);
    writeFileSync(path, 'not json\n');
    const r = new LocalReader(dir);
    const c = await r.counts('gamma');
    await r.close();
    expect(c.uncertain).toBe(0);
    expect(c.warnings).toEqual([expect.stringContaining(`${path} cannot be read as a journal`)]);
  });
});

const pg = clusterForFile();

describe.skipIf(!pgInstalled)('LocalReader with a team store', () => {
  it('counts the chats of the team store (not the local files) and the journals of the folder', async () => {
    const dir = tempDir();
    await writeStore(dir, 'alpha', { open: 3 }); // local files the desk no longer uses for chats
    writeJournal(dir, 'alpha', ['sending']);
    const team = openPgStore(await pg().createDatabase());
    await team.recordReceived('alpha', msg('a', 'enc-1', 'one', 1));
    await team.recordReceived('alpha', msg('b', 'enc-1', 'two', 2));
    await team.recordReceived('alpha', read('a', 3));
    await team.recordReceived('alpha', close('enc-2', 4));
    const r = new LocalReader(dir, team);
    try {
      expect(await r.counts('alpha')).toEqual({ unread: 1, open: 1, threads: 2, uncertain: 1, failed: 0, warnings: [] });
    } finally {
      await r.close();
      await team.close();
    }
  });
});

describe('JournalCounter', () => {
  it('reads a journal again only when its size or time changed', async () => {
    const dir = tempDir();
    const path = writeJournal(dir, 'delta', ['sending']);
    const counter = new JournalCounter();
    const first = await counter.summaries(dir, 'delta');
    expect(first).toEqual([{ path, rows: 1, uncertain: 1, failed: 0, warnings: [] }]);
    expect(await counter.summaries(dir, 'delta')).toEqual(first);
    expect((await counter.summaries(dir, 'delta'))[0]).toBe(first[0]); // the cached summary itself
    writeJournal(dir, 'delta', ['sending', 'failed', 'started']);
    expect(await counter.summaries(dir, 'delta')).toEqual([{ path, rows: 3, uncertain: 2, failed: 1, warnings: [] }]);
  });
});
