/**
 * Doctor's look at the profile's local files: the thread store (readable, records, torn or unreadable lines)
 * and the bulk-send journals (rows whose outcome is uncertain, waiting for a decision; failed rows a rerun sends
 * again). Read only: nothing is repaired, locked or written.
 */
import { existsSync } from 'node:fs';
import { journalFiles, journalsFolder, summarizeJournal } from '../bulk/journals.js';
import type { CheckMessage } from '../check/model.js';
import { openThreadStore } from '../threads/store.js';

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
  let files: string[];
  try {
    files = journalFiles(dir, profile);
  } catch (e) {
    return {
      ok: false,
      messages: [{ type: 'error', text: `${journalsFolder(dir, profile)} cannot be read (${(e as NodeJS.ErrnoException).code}).` }],
    };
  }
  if (!files.length) return { ok: true, messages: [{ type: 'info', text: 'no bulk-send journals.' }] };
  const messages: CheckMessage[] = [];
  let ok = true;
  for (const path of files) {
    const j = await summarizeJournal(path);
    if (j.error) {
      ok = false;
      messages.push({ type: 'error', text: `${path} cannot be read as a journal: ${j.error}` });
      continue;
    }
    if (j.uncertain)
      messages.push({
        type: 'warning',
        text: `${path}: ${j.uncertain} rows may have been sent without an answer recorded; check them with the portal, then rerun the send, resending uncertain rows to send them again.`,
      });
    if (j.failed) messages.push({ type: 'info', text: `${path}: ${j.failed} rows failed; a rerun of the send tries them again.` });
    if (!j.uncertain && !j.failed) messages.push({ type: 'info', text: `${path}: ${j.rows} rows, nothing waiting.` });
    for (const w of j.warnings) messages.push({ type: 'warning', text: w });
  }
  return { ok, messages };
}
