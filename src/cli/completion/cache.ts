/**
 * Ids for shell completion that only a server knows (appointments, medication requests): the list commands
 * (`appointments list`, A5; `medications list`, M1) remember the ids they printed last, and `pdesk __complete`
 * offers them (`appointments cancel <TAB>`, `medications show <TAB>`, `medications order --reorder <TAB>`)
 * without sending a request.
 *
 * The file is `completion/<profile>/<kind>.json` in the config folder, mode 0600: the last list only, at most
 * MAX_IDS ids, each with a short description (status, start time or medication name); no secrets, no patient
 * names. It is written atomically (a temporary file renamed over it). Failing to write it never fails the list
 * command: it is a convenience (`--verbose` says why).
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../context.js';

export type CachedKind = 'appointments' | 'medication-requests';

export interface CachedId {
  id: string;
  description?: string;
}

/** The most ids kept (the default --limit of a list). */
export const MAX_IDS = 1000;

/** Profile names are letters, digits, `.`, `_`, `-` (the profile schema); anything else gets no cache file. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function cachePath(configDir: string, profile: string, kind: CachedKind): string | undefined {
  return SAFE_NAME.test(profile) ? join(configDir, 'completion', profile, `${kind}.json`) : undefined;
}

/** Text fit for a completion menu: one line, no control characters, not too long. */
function oneLine(text: string, max = 80): string {
  const t = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** Write the ids a list printed, replacing the last list's. */
export async function writeCachedIds(configDir: string, profile: string, kind: CachedKind, ids: readonly CachedId[]): Promise<void> {
  const path = cachePath(configDir, profile, kind);
  if (!path) return;
  const entries = ids
    .filter((e) => typeof e.id === 'string' && e.id !== '' && !/[\u0000-\u0020\u007f-\u009f]/.test(e.id))
    .slice(0, MAX_IDS)
    .map((e) => (e.description ? { id: e.id, description: oneLine(e.description) } : { id: e.id }));
  await mkdir(join(configDir, 'completion', profile), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, `${JSON.stringify({ savedAt: new Date().toISOString(), ids: entries })}\n`, { mode: 0o600 });
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/** The ids of the last list, or none (no file, or one that is not what this module writes). */
export function readCachedIds(configDir: string, profile: string, kind: CachedKind): CachedId[] {
  const path = cachePath(configDir, profile, kind);
  if (!path) return [];
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as { ids?: unknown };
    if (!Array.isArray(data.ids)) return [];
    return data.ids.filter((e): e is CachedId => !!e && typeof e === 'object' && typeof (e as CachedId).id === 'string');
  } catch {
    return [];
  }
}

/** A list command remembers what it printed for completion; a failure is only a --verbose line. */
export async function rememberIds(ctx: Context, kind: CachedKind, ids: readonly CachedId[]): Promise<void> {
  try {
    const profile = await ctx.profile();
    await writeCachedIds(await ctx.configDir(), profile.name, kind, ids);
  } catch (e) {
    ctx.log(`pdesk: the ${kind} ids for shell completion were not saved (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
  }
}
