/**
 * The point each thread was last shown at, per operator (docs/cli.md, `chat reply --after`): `chat show` notes the
 * newest message it printed (its `seq`), and `chat reply` takes that point as what the operator has seen, so that a
 * message that came in since holds the reply (decisions.md §17). A thread never shown here has no point: the reply
 * then takes the thread's newest message when the command starts.
 *
 * The file is `desk/<profile>/seen.json` in the config folder, mode 0600, keyed by the store (a point means nothing
 * in another one) and the operator; at most MAX_THREADS threads per key, the last shown kept. Written atomically (a
 * temporary file renamed over it); a file that cannot be read counts as none.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The most threads whose point is kept per store and operator. */
export const MAX_THREADS = 500;

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Per store and operator, `[thread, seq]` pairs, the last shown last (an array: thread ids may look like numbers). */
type Points = Record<string, Array<[string, number]>>;

export function seenPath(configDir: string, profile: string): string | undefined {
  return SAFE_NAME.test(profile) ? join(configDir, 'desk', profile, 'seen.json') : undefined;
}

function read(path: string): Points {
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as { points?: unknown };
    return data.points && typeof data.points === 'object' && !Array.isArray(data.points) ? (data.points as Points) : {};
  } catch {
    return {};
  }
}

const keyOf = (store: string, operator: string) => `${store} ${operator}`;

/** The point `chat show` last printed `thread` at for this operator and store, if any. */
export function readSeen(configDir: string, profile: string, store: string, operator: string, thread: string): number | undefined {
  const path = seenPath(configDir, profile);
  if (!path) return undefined;
  const list = read(path)[keyOf(store, operator)];
  const v = Array.isArray(list) ? list.find((e) => Array.isArray(e) && e[0] === thread)?.[1] : undefined;
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}

/** Note the point `thread` was shown at (the newest first: the oldest go beyond MAX_THREADS). */
export async function writeSeen(configDir: string, profile: string, store: string, operator: string, thread: string, seq: number) {
  const path = seenPath(configDir, profile);
  if (!path) return;
  const points = read(path);
  const key = keyOf(store, operator);
  const mine = Array.isArray(points[key]) ? points[key].filter((e) => Array.isArray(e) && e[0] !== thread) : [];
  points[key] = [...mine, [thread, seq] as [string, number]].slice(-MAX_THREADS);
  await mkdir(join(configDir, 'desk', profile), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, `${JSON.stringify({ points })}\n`, { mode: 0o600 });
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}
