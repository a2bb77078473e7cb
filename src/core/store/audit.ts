/**
 * The write audit trail in the desk's store (decisions.md §15, §17): with a team store configured, a client's writes
 * are recorded in its `audit` table, written ahead as in the file trail: a write's record is in the database (its
 * transaction committed) before its request leaves, and completed with its status or error after; one never
 * completed is `outcome unknown`. A bulk row's record is written ahead of its turn and marked started (awaited)
 * just before its request leaves: one never started was never sent, and is left out.
 *
 * `openAuditTrail` picks the trail the desk uses, as every command picks its store (select.ts): the config folder's
 * file (src/core/audit.ts, its fast path untouched), or the team store. Either records the operator as the
 * record's `user`.
 */
import { randomBytes } from 'node:crypto';
import {
  type AuditEnd,
  type AuditEntry,
  type AuditIntentLike,
  AuditLog,
  type AuditProfile,
  type AuditStart,
  type AuditTrail,
  bodyParts,
} from '../audit.js';
import { PdeskError } from '../errors.js';
import { isoTime } from '../iso-time.js';
import { operatorOf } from '../operator.js';
import { redact } from '../redact.js';
import { readSettings } from '../settings.js';
import { openDeskStore } from './open.js';
import { selectStore } from './select.js';
import type { DeskStore } from './types.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A write's record in a desk store: written (and committed) when `durable` resolves. */
class StoreIntent implements AuditIntentLike {
  done = false;
  readonly durable: Promise<void>;

  constructor(
    private readonly store: DeskStore,
    private readonly start_: AuditStart,
  ) {
    this.durable = store.auditBegin(start_).then(() => {
      this.done = true;
    });
    // Awaited by whoever sends the request; a failure must not also end the process as an unhandled rejection.
    this.durable.catch(() => undefined);
  }

  get id(): string {
    return this.start_.key;
  }

  get ahead(): boolean {
    return !!this.start_.ahead;
  }

  /** Marked started in the store before the request leaves (the caller waits for it). */
  start(): Promise<void> {
    return this.durable.then(() => this.store.auditStart(this.start_.profile, this.start_.key, isoTime(Date.now())));
  }
}

export class StoreAuditTrail implements AuditTrail {
  readonly path: string;
  private opened = false;
  /** Keys `<run>.<n>`, as the file trail's record ids: unique per process, so a trail imported later keeps them. */
  private readonly run = randomBytes(6).toString('base64url');
  private seq = 0;
  private readonly bodies: boolean;

  constructor(
    private readonly store: DeskStore,
    readonly profile: AuditProfile,
    private readonly operator: string,
    /** Opened for this trail: closed with it. */
    private readonly owned = false,
  ) {
    this.path = store.where(profile.name);
    this.bodies = profile.audit?.bodies !== false;
  }

  get isOpen(): boolean {
    return this.opened;
  }

  async ready(): Promise<void> {
    if (this.opened) return;
    try {
      await this.store.prepare(this.profile.name);
    } catch (e) {
      if (e instanceof PdeskError) e.details.push('Every write is recorded in the team store before it is sent: nothing was sent.');
      throw e;
    }
    this.opened = true;
  }

  begin(e: AuditEntry, o: { ahead?: boolean } = {}): AuditIntentLike {
    const { bodySha256, json } = bodyParts(e, this.bodies);
    return new StoreIntent(this.store, {
      key: `${this.run}.${++this.seq}`,
      profile: this.profile.name,
      ...(this.profile.environment ? { environment: this.profile.environment } : {}),
      operator: this.operator,
      ...(e.op ? { op: e.op } : {}),
      method: e.method,
      url: redact(e.url),
      at: isoTime(e.startedAt),
      ...(bodySha256 !== undefined ? { bodySha256 } : {}),
      ...(json !== undefined ? { body: JSON.parse(json) } : {}),
      ...(o.ahead ? { ahead: true } : {}),
    });
  }

  async complete(intent: AuditIntentLike, end: AuditEnd, created?: string): Promise<void> {
    await intent.durable;
    await this.store.auditComplete(this.profile.name, intent.id, {
      ms: end.ms,
      ...(end.status !== undefined ? { status: end.status } : {}),
      ...(end.error ? { error: end.error } : {}),
      ...(created !== undefined ? { created } : {}),
    });
  }

  async withdraw(intent: AuditIntentLike): Promise<void> {
    await intent.durable.catch(() => undefined);
    await this.store.auditWithdraw(this.profile.name, intent.id);
  }

  groupCommit(): void {
    /* each record is its own transaction */
  }

  flush(): void {
    /* nothing waits for the end of a turn */
  }

  async close(): Promise<void> {
    if (this.owned) await this.store.close();
  }
}

/**
 * The audit trail of a profile's writes, as the desk is set up (config folder `dir`, environment `env`): the team
 * store when one is selected (`desk`, the store the caller already opened, else one opened for the trail), else the
 * config folder's file. The operator is the records' `user`.
 */
export async function openAuditTrail(dir: string, profile: AuditProfile, env: Env, desk?: () => Promise<DeskStore>): Promise<AuditTrail> {
  const settings = readSettings(dir);
  const operator = operatorOf(env, settings).name;
  const selection = selectStore(env, settings, dir);
  if (selection.engine === 'file') return new AuditLog(dir, profile, { user: operator });
  if (desk) return new StoreAuditTrail(await desk(), profile, operator);
  return new StoreAuditTrail(await openDeskStore(selection, { dir, operator }), profile, operator, true);
}
