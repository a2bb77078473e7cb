/**
 * The bulk-send journals of a profile (`journals/<profile>/*.journal.ndjson` in the config folder), read only:
 * how many rows each holds, how many failed (a rerun sends them again) and how many are uncertain (their POST
 * may have reached the portal with no answer recorded: waiting for the operator's decision). Used by
 * `pdesk doctor` and the TUI's Systems screen; nothing is locked, repaired or written.
 */
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isUncertain, type JournalHeader, loadJournal, RowState } from './journal.js';

export interface JournalSummary {
  path: string;
  rows: number;
  uncertain: number;
  failed: number;
  warnings: string[];
  /** Why it could not be read as a journal (the counts are then 0). */
  error?: string;
}

/** The folder of a profile's journals. */
export const journalsFolder = (dir: string, profile: string) => join(dir, 'journals', profile);

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

/** The journal files of a profile, sorted; [] when there is no folder. Throws when the folder cannot be read. */
export function journalFiles(dir: string, profile: string): string[] {
  const folder = journalsFolder(dir, profile);
  try {
    return readdirSync(folder)
      .filter((f) => f.endsWith('.journal.ndjson'))
      .sort()
      .map((f) => join(folder, f));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}

/** Read one journal's row states. */
export async function summarizeJournal(path: string): Promise<JournalSummary> {
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
    return { path, rows: rows.count, uncertain, failed, warnings };
  } catch (e) {
    return { path, rows: 0, uncertain: 0, failed: 0, warnings: [], error: (e as Error).message };
  }
}

/**
 * Journal summaries with a cache: a journal whose size and modification time did not change is not read
 * again (a 100,000-row journal takes a moment to read, and the Systems screen asks every 30 s).
 */
export class JournalCounter {
  private readonly cache = new Map<string, { key: string; summary: JournalSummary }>();

  async summaries(dir: string, profile: string): Promise<JournalSummary[]> {
    const out: JournalSummary[] = [];
    for (const path of journalFiles(dir, profile)) {
      let key: string;
      try {
        const s = statSync(path);
        key = `${s.size}:${s.mtimeMs}`;
      } catch {
        continue; // gone meanwhile
      }
      const hit = this.cache.get(path);
      if (hit?.key === key) out.push(hit.summary);
      else {
        const summary = await summarizeJournal(path);
        this.cache.set(path, { key, summary });
        out.push(summary);
      }
    }
    return out;
  }
}
