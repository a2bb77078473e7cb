/**
 * Presence in the file store: who has which thread open on this machine, per desk session (one TUI). One small file
 * per session in `desk/<profile>/presence/` of the config folder, rewritten at each heartbeat (atomically, not
 * fsynced: presence is not data a crash may lose), read by `viewers`. The machine's clock is the only clock, so a
 * heartbeat's time is taken here. A session file whose every heartbeat is older than PRESENCE_FORGET_MS (a desk
 * that died without leaving) is removed by the next heartbeat that finds it.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PRESENCE_FORGET_MS, PRESENCE_TTL_MS } from '../timing.js';
import type { PresenceSession, Viewer } from '../types.js';

/** What a session file holds: the session, its operator, and per open thread its last heartbeat (ms since 1970). */
export interface SessionFile {
  session: string;
  operator: string;
  threads: Record<string, number>;
}

/** The file of a session (named by a hash: a session id is the desk's, any text). */
export const sessionFileName = (session: string) => `${createHash('sha256').update(session).digest('hex').slice(0, 32)}.json`;

export async function readSessionFile(path: string): Promise<SessionFile | undefined> {
  try {
    const v = JSON.parse(await readFile(path, 'utf8')) as SessionFile;
    return v && typeof v.session === 'string' && typeof v.operator === 'string' && v.threads && typeof v.threads === 'object'
      ? v
      : undefined;
  } catch {
    return undefined;
  }
}

export class FilePresence {
  /** This process's sessions: profile → session → what its file says. */
  private readonly mine = new Map<string, Map<string, SessionFile>>();

  constructor(private readonly folderOf: (profile: string) => string) {}

  private async write(profile: string, s: SessionFile): Promise<void> {
    const folder = this.folderOf(profile);
    const path = join(folder, sessionFileName(s.session));
    if (Object.keys(s.threads).length === 0) {
      await unlink(path).catch(() => undefined);
      return;
    }
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const tmp = `${path}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(s), { mode: 0o600 });
    await rename(tmp, path);
  }

  /** A heartbeat of `thread` from session `p`; true when the thread was not open in that session before. */
  async heartbeat(profile: string, thread: string, p: PresenceSession, now = Date.now()): Promise<boolean> {
    let sessions = this.mine.get(profile);
    if (!sessions) {
      sessions = new Map();
      this.mine.set(profile, sessions);
    }
    let s = sessions.get(p.session);
    if (!s) {
      // A session this process did not open (another desk object of the same session): start from its file.
      s = (await readSessionFile(join(this.folderOf(profile), sessionFileName(p.session)))) ?? {
        session: p.session,
        operator: p.operator,
        threads: {},
      };
      sessions.set(p.session, s);
    }
    const fresh = s.threads[thread] === undefined || s.threads[thread]! <= now - PRESENCE_TTL_MS;
    s.operator = p.operator;
    s.threads[thread] = now;
    await this.write(profile, s);
    if (fresh) await this.forgetDead(profile, now);
    return fresh;
  }

  /** Session `p` closed `thread` (every thread when undefined); returns the threads it had open. */
  async leave(profile: string, p: PresenceSession, thread?: string): Promise<string[]> {
    const sessions = this.mine.get(profile);
    const s = sessions?.get(p.session) ?? (await readSessionFile(join(this.folderOf(profile), sessionFileName(p.session))));
    if (!s) return [];
    const gone = thread === undefined ? Object.keys(s.threads) : s.threads[thread] !== undefined ? [thread] : [];
    for (const t of gone) delete s.threads[t];
    if (gone.length) await this.write(profile, s);
    if (Object.keys(s.threads).length === 0) sessions?.delete(p.session);
    return gone;
  }

  /** Every session file of the profile. */
  async sessions(profile: string): Promise<Array<{ file: string; s: SessionFile }>> {
    const folder = this.folderOf(profile);
    let names: string[];
    try {
      names = await readdir(folder);
    } catch {
      return [];
    }
    const out: Array<{ file: string; s: SessionFile }> = [];
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      const s = await readSessionFile(join(folder, name));
      if (s) out.push({ file: name, s });
    }
    return out;
  }

  async viewers(profile: string, thread: string, except?: PresenceSession, now = Date.now()): Promise<Viewer[]> {
    const seen = new Map<string, number>();
    for (const { s } of await this.sessions(profile)) {
      if (s.session === except?.session) continue;
      const at = s.threads[thread];
      if (at === undefined || at <= now - PRESENCE_TTL_MS) continue;
      seen.set(s.operator, Math.max(seen.get(s.operator) ?? 0, at));
    }
    return [...seen]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([operator, at]) => ({ operator, seenAt: new Date(at).toISOString() }));
  }

  private async forgetDead(profile: string, now: number): Promise<void> {
    for (const { file, s } of await this.sessions(profile)) {
      const newest = Math.max(0, ...Object.values(s.threads));
      if (newest < now - PRESENCE_FORGET_MS) await unlink(join(this.folderOf(profile), file)).catch(() => undefined);
    }
  }
}
