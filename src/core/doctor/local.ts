/**
 * Doctor's look at the profile's desk store and local files: the thread store (readable, records, torn or unreadable
 * lines), or the team store (reachable, its threads), and the bulk-send journals (rows whose outcome is uncertain, waiting for a decision; failed rows a rerun sends
 * again). Read only: nothing is repaired, locked or written.
 */
import { existsSync } from 'node:fs';
import { journalFiles, journalsFolder, summarizeJournal } from '../bulk/journals.js';
import type { CheckMessage } from '../check/model.js';
import type { DeskStore } from '../store/types.js';
import { openThreadStore } from '../threads/store.js';

/** The team store's answer for the profile: reachable, and how many threads it holds. */
async function teamStoreMessages(store: DeskStore, profile: string): Promise<{ ok: boolean; messages: CheckMessage[] }> {
  const where = store.where(profile);
  const down = (await store.health()).filter((c) => !c.ok);
  if (down.length)
    return { ok: false, messages: down.map((c) => ({ type: 'error' as const, text: `the team store ${where}: ${c.detail ?? c.name}.` })) };
  try {
    const threads = await store.listThreads(profile);
    const unread = threads.reduce((n, t) => n + t.unread, 0);
    const unowned = threads.filter((t) => t.owner === undefined && t.status === 'open').length;
    return {
      ok: true,
      messages: [
        {
          type: 'info',
          text: `${threads.length} threads in the team store ${where}: ${unread} unread messages, ${unowned} open threads nobody owns.`,
        },
      ],
    };
  } catch (e) {
    return { ok: false, messages: [{ type: 'error', text: `the team store ${where} cannot be read (${(e as Error).message}).` }] };
  }
}

/** The desk's store of the profile: the team store when `store` is one, else the thread store in `dir`. */
export async function threadStoreMessages(
  dir: string,
  profile: string,
  desk?: DeskStore,
): Promise<{ ok: boolean; messages: CheckMessage[] }> {
  if (desk?.engine === 'postgres') return teamStoreMessages(desk, profile);
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
