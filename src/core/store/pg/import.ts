/**
 * `pdesk store import`: a profile's local store (its thread store and audit trail in the config folder) copied into
 * the team store, record by record in the order they were written, so that a second run adds nothing
 * (docs/decisions.md §17, "Moving a team over"). What decides "already there":
 * - a message: its Communication id; a read marker: the id of the message it marks; a close: the thread is closed;
 * - a notification: its id, else an import key (a hash of the record and how many identical ones came before it);
 * - a change of owner: an import key made the same way; an audit record: its key (the trail's record id, or a hash
 *   of a record written before write-ahead).
 * History is copied as it was: a message keeps `via`, its time and its operator, and is stored even in a thread that
 * was closed later; owners are the file's own records (no first-reply is made up). A message the file store holds
 * as pending (written before its request; its outcome never learnt) or refused is not copied: the audit trail,
 * copied too, says outcome unknown.
 *
 * Records go in batches, each one transaction that also recomputes the summaries of the threads it touched and
 * tells subscribers to reload; a dry run copies everything in one transaction and rolls it back.
 */
import { hash } from 'node:crypto';
import { auditPath, readAuditKeyed } from '../../audit.js';
import { ExitCode, PdeskError } from '../../errors.js';
import type { AnyRecord, LoadedMessage } from '../../threads/records.js';
import { resourceOf } from '../../threads/records.js';
import { readStore, type ReadRecord } from '../../threads/segments.js';
import { threadStorePath } from '../../threads/store.js';
import { textOf } from '../../threads/view.js';
import { CHANNEL } from './notify.js';
import type { Tx } from './connect.js';
import type { PgDeskStore } from './store.js';

/** Records per transaction. */
const BATCH = 500;

export interface ImportCounts {
  messages: number;
  reads: number;
  closes: number;
  notifications: number;
  owners: number;
  audit: number;
}

export interface ImportResult {
  profile: string;
  /** Copied now (would be, on a dry run). */
  added: ImportCounts;
  /** In the team store already. */
  present: ImportCounts;
  /** Not copied: messages the local store holds as pending, their outcome never learnt (audited as unknown). */
  unknown: number;
}

const zero = (): ImportCounts => ({ messages: 0, reads: 0, closes: 0, notifications: 0, owners: 0, audit: 0 });

/** Thrown at the end of a dry run's transaction, so that it rolls back. */
class DryRun extends PdeskError {}

type Item = { kind: 'record'; r: AnyRecord | LoadedMessage; key?: string } | { kind: 'audit'; key: string; record: AuditRecordOf };
type AuditRecordOf = ReturnType<typeof readAuditKeyed>['records'][number]['record'];

/** Keys of records that have no id of their own: their content, and how many identical ones came before. */
function keyer(): (value: unknown) => string {
  const seen = new Map<string, number>();
  return (value) => {
    const h = hash('sha256', JSON.stringify(value));
    const n = (seen.get(h) ?? 0) + 1;
    seen.set(h, n);
    return `${h.slice(0, 40)}#${n}`;
  };
}

/**
 * What the profile's local store holds, in the order it was written, with the keys of what has no id; and how many
 * messages it holds as pending whose outcome was never learnt (not copied: the audit trail says outcome unknown).
 */
async function localItems(dir: string, profile: string, warn: (w: string) => void): Promise<{ items: Item[]; unsettled: number }> {
  const items: Item[] = [];
  const key = keyer();
  /** Pending messages not settled (yet) by a later record of theirs: `sent` (under their id or the server's), or `refused`. */
  const pending = new Set<string>();
  await readStore(
    threadStorePath(dir, profile),
    (r: ReadRecord) => {
      if (r.kind === 'message' && (r.via === 'pending' || r.via === 'refused')) {
        if (r.via === 'pending') pending.add(r.id);
        else pending.delete(r.id);
        return;
      }
      if (r.kind === 'message' && r.via === 'sent' && pending.size) {
        pending.delete(r.id);
        for (const k of resourceOf(r as LoadedMessage).identifier ?? []) if (k.value !== undefined) pending.delete(k.value);
      }
      if (r.kind === 'assign') items.push({ kind: 'record', r, key: key(r) });
      else if (r.kind === 'notification' && typeof r.resource.id !== 'string') items.push({ kind: 'record', r, key: key(r) });
      else items.push({ kind: 'record', r });
    },
    warn,
  );
  const audit = readAuditKeyed(auditPath(dir, profile));
  for (const w of audit.warnings) warn(w);
  for (const { key: k, record } of audit.records) items.push({ kind: 'audit', key: k, record });
  return { items, unsettled: pending.size };
}

/** Copy one item; true when it was added. `touched` collects the threads whose summaries must be recomputed. */
async function copy(tx: Tx, profile: string, item: Item, touched: Set<string>): Promise<{ kind: keyof ImportCounts; added: boolean }> {
  if (item.kind === 'audit') {
    const a = item.record;
    const outcome = a.outcome === 'unknown' ? 'unknown' : a.status !== undefined ? 'answered' : 'no-answer';
    const rows = await tx`
      insert into pdesk.audit (profile, key, environment, operator, at, op, method, url, outcome, status, created, error, ms, body_sha256, body)
      values (${profile}, ${item.key}, ${a.environment ?? null}, ${a.user}, ${a.at}::timestamptz, ${a.op ?? null}, ${a.method}, ${a.url},
              ${outcome}, ${a.status ?? null}, ${a.id ?? null}, ${a.error === undefined ? null : tx.json(a.error)}, ${a.ms ?? null},
              ${a.bodySha256 ?? null}, ${a.body === undefined ? null : tx.json(a.body as never)})
      on conflict (profile, key) where key is not null do nothing returning 1`;
    return { kind: 'audit', added: rows.length > 0 };
  }
  const r = item.r;
  const ensureThread = (thread: string) =>
    tx`insert into pdesk.threads (profile, thread) values (${profile}, ${thread}) on conflict do nothing`;
  switch (r.kind) {
    case 'message': {
      const resource = resourceOf(r as LoadedMessage);
      await ensureThread(r.thread);
      const rows = await tx`
        insert into pdesk.messages (profile, id, thread, op, via, at, operator, text, resource)
        values (${profile}, ${r.id}, ${r.thread}, ${r.op}, ${r.via}, ${r.at}::timestamptz, ${r.operator ?? null},
                ${textOf(resource).replaceAll('\u0000', '')}, ${tx.json(resource as never)})
        on conflict (profile, id) do nothing returning 1`;
      if (rows.length) touched.add(r.thread);
      return { kind: 'messages', added: rows.length > 0 };
    }
    case 'read': {
      const [msg] = await tx<[{ thread: string }?]>`select thread from pdesk.messages where profile = ${profile} and id = ${r.id}`;
      const thread = msg?.thread ?? r.thread ?? null;
      const rows = await tx`
        insert into pdesk.read_markers (profile, id, thread, read_at, via, at, operator, resource)
        values (${profile}, ${r.id}, ${thread}, ${r.readAt}, ${r.via === 'sent' ? 'sent' : 'received'}, ${r.at}::timestamptz,
                ${r.operator ?? null}, ${tx.json(r.resource as never)})
        on conflict (profile, id) do nothing returning 1`;
      if (rows.length && thread !== null) touched.add(thread);
      return { kind: 'reads', added: rows.length > 0 };
    }
    case 'close': {
      await ensureThread(r.thread);
      const rows = await tx`update pdesk.threads set status = 'closed', closed_at = ${r.at}::timestamptz,
          close_via = ${r.via === 'sent' ? 'sent' : 'received'}, close_operator = ${r.operator ?? null}, close_resource = ${tx.json(r.resource as never)}
        where profile = ${profile} and thread = ${r.thread} and status = 'open' returning 1`;
      if (rows.length) touched.add(r.thread);
      return { kind: 'closes', added: rows.length > 0 };
    }
    case 'notification': {
      const id = typeof r.resource.id === 'string' ? r.resource.id : null;
      const rows =
        id !== null
          ? await tx`insert into pdesk.notifications (profile, id, via, at, operator, resource)
              values (${profile}, ${id}, ${r.via === 'sent' ? 'sent' : 'received'}, ${r.at}::timestamptz, ${r.operator ?? null}, ${tx.json(r.resource as never)})
              on conflict (profile, id) where id is not null do nothing returning 1`
          : await tx`insert into pdesk.notifications (profile, import_key, via, at, operator, resource)
              values (${profile}, ${item.key!}, ${r.via === 'sent' ? 'sent' : 'received'}, ${r.at}::timestamptz, ${r.operator ?? null}, ${tx.json(r.resource as never)})
              on conflict (profile, import_key) where import_key is not null do nothing returning 1`;
      return { kind: 'notifications', added: rows.length > 0 };
    }
    case 'assign': {
      await ensureThread(r.thread);
      const rows = await tx`
        insert into pdesk.assignments (profile, thread, owner, previous, by_operator, reason, at, import_key)
        values (${profile}, ${r.thread}, ${r.owner}, ${r.previous ?? null}, ${r.by}, ${r.reason}, ${r.at}::timestamptz, ${item.key!})
        on conflict (profile, import_key) where import_key is not null do nothing returning 1`;
      if (rows.length) {
        await tx`update pdesk.threads set owner = ${r.owner}, assigned_at = ${r.owner === null ? null : tx`${r.at}::timestamptz`}
          where profile = ${profile} and thread = ${r.thread}`;
        touched.add(r.thread);
      }
      return { kind: 'owners', added: rows.length > 0 };
    }
  }
}

async function copyBatch(tx: Tx, profile: string, items: Item[], result: ImportResult): Promise<void> {
  const touched = new Set<string>();
  for (const item of items) {
    const done = await copy(tx, profile, item, touched);
    if (done.added) result.added[done.kind]++;
    else result.present[done.kind]++;
  }
  for (const thread of touched) await tx`select pdesk.refresh_thread(${profile}, ${thread})`;
  if (touched.size || items.length) await tx`select pg_notify(${CHANNEL}, ${JSON.stringify({ k: 'resync' })})`;
}

/**
 * Copy the profile's local store in `dir` into the team store. `dryRun`: count what would be copied, change nothing.
 * `warn` gets the local store's warnings (unreadable lines, skipped as by any reader).
 */
export async function importLocalStore(
  store: PgDeskStore,
  dir: string,
  profile: string,
  o: { dryRun?: boolean; warn?: (w: string) => void } = {},
): Promise<ImportResult> {
  const { items, unsettled } = await localItems(dir, profile, o.warn ?? (() => undefined));
  const result: ImportResult = { profile, added: zero(), present: zero(), unknown: unsettled };
  if (o.dryRun) {
    await store
      .transaction(async (tx) => {
        await copyBatch(tx, profile, items, result);
        throw new DryRun('dry run', ExitCode.ok);
      })
      .catch((e) => {
        if (!(e instanceof DryRun)) throw e;
      });
    return result;
  }
  for (let i = 0; i < items.length; i += BATCH) {
    const batch = items.slice(i, i + BATCH);
    await store.transaction((tx) => copyBatch(tx, profile, batch, result));
  }
  return result;
}
