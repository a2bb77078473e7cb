/**
 * Doctor's look at the profile's local files: the thread store (readable, records, torn or unreadable lines)
 * and the bulk-send journals (rows whose outcome is uncertain, waiting for a decision; failed rows a rerun sends
 * again). Read only: nothing is repaired, locked or written.
 */
import { closeSync, existsSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { isUncertain, type JournalHeader, loadJournal, RowState } from '../bulk/journal.js';
import type { CheckMessage } from '../check/model.js';
import { openThreadStore } from '../threads/store.js';

/** The header line of a journal (the file may hold 100,000 rows: only its start is read). */
function firstLine(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(8192);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('utf8').split('\n', 1)[0]!;
  } finally {
    closeSync(fd);
  }
}

export async function threadStoreMessages(dir: string, profile: string): Promise<{ ok: boolean; messages: CheckMessage[] }> {
  const store = openThreadStore(dir, profile);
  if (!existsSync(store.path)) return { ok: true, messages: [{ type: 'info', text: `no thread store yet (${store.path}).` }] };
  try {
    const view = await store.load();
    const messages: CheckMessage[] = [{ type: 'info', text: `${view.count} records in ${store.path}.` }];
    for (const w of store.warnings) messages.push({ type: 'warning', text: w });
    return { ok: true, messages };
  } catch (e) {
    return {
      ok: false,
      messages: [
        {
          type: 'error',
          text: `the thread store ${store.path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`,
        },
      ],
    };
  } finally {
    await store.close().catch(() => undefined);
  }
}

export async function journalMessages(dir: string, profile: string): Promise<{ ok: boolean; messages: CheckMessage[] }> {
  const folder = join(dir, 'journals', profile);
  let files: string[];
  try {
    files = readdirSync(folder).filter((f) => f.endsWith('.journal.ndjson'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, messages: [{ type: 'info', text: 'no bulk-send journals.' }] };
    return { ok: false, messages: [{ type: 'error', text: `${folder} cannot be read (${(e as NodeJS.ErrnoException).code}).` }] };
  }
  if (!files.length) return { ok: true, messages: [{ type: 'info', text: 'no bulk-send journals.' }] };
  const messages: CheckMessage[] = [];
  let ok = true;
  for (const f of files.sort()) {
    const path = join(folder, f);
    try {
      const header = JSON.parse(firstLine(path)) as JournalHeader;
      const warnings: string[] = [];
      const { rows } = await loadJournal({
        path,
        templateHash: header.template,
        emailColumn: header.emailColumn,
        csvPath: header.csv,
        warn: (w) => warnings.push(w),
        readOnly: true,
      });
      let uncertain = 0;
      let failed = 0;
      for (let row = 1; row <= rows.maxRow; row++) {
        const s = rows.state(row);
        if (isUncertain(s)) uncertain++;
        else if (s === RowState.failed) failed++;
      }
      if (uncertain)
        messages.push({
          type: 'warning',
          text: `${path}: ${uncertain} rows may have been sent without an answer recorded; check them with the portal, then rerun the send (with --resend-uncertain to send them again).`,
        });
      if (failed) messages.push({ type: 'info', text: `${path}: ${failed} rows failed; a rerun of the send tries them again.` });
      if (!uncertain && !failed) messages.push({ type: 'info', text: `${path}: ${rows.count} rows, nothing waiting.` });
      for (const w of warnings) messages.push({ type: 'warning', text: w });
    } catch (e) {
      ok = false;
      messages.push({ type: 'error', text: `${path} cannot be read as a journal: ${(e as Error).message}` });
    }
  }
  return { ok, messages };
}
