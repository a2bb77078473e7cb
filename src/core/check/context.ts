/**
 * What the checks of one run share (`Run`: the profile, the observed client, the inputs, reads made once and
 * used by several checks, what the write checks booked and sent) and what one check gets while it runs
 * (`CheckContext`: its messages and the HTTP exchanges its verdict rests on).
 *
 * Checks of one profile run one after another, so every exchange the client reports belongs to the check (or
 * shared read) running at that moment: `Run.sink` is where the observer puts it.
 */
import type { Exchange, PdeskClient } from '../client.js';
import type { Profile } from '../profile/schema.js';
import type { AppointmentCreate } from '../schemas/appointment.js';
import type { MessageSink } from './answers.js';
import type { CheckInfo, CheckInputs, CheckMessage, CreatedResource, InputName } from './model.js';

/** Thrown by a check that cannot run: it ends `skip` with the reason. */
export class SkipCheck extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** A booking the appointment checks made (A6), followed until it is cancelled. */
export interface Booking {
  /** The server's id once it answered (decisions.md §16), the id sent before. */
  id: string;
  check: string;
  /**
   * What the server answered: `created` (2xx), `unknown` (no answer: it may exist), `refused`; `cancelled` once A7
   * was answered and A5 read it back cancelled; `not-cancelled` when A7 was answered but the appointment is not
   * cancelled (nothing sends A7 again: the run lists it as not undone).
   */
  state: 'created' | 'unknown' | 'refused' | 'cancelled' | 'not-cancelled';
  created?: CreatedResource;
}

/** What the write checks pass on to the checks after them. */
export interface RunData {
  /** The booking of A6-book, its slot and what was sent. */
  booking?: Booking & {
    slotId: string;
    slotDay: string;
    start: string;
    end: string;
    status: string;
    body: AppointmentCreate;
    /** A4 no longer offered the slot as free once it was booked; undefined when that could not be read. */
    slotTaken?: boolean;
  };
  /** Further bookings that must be cancelled too (a double booking the server accepted). */
  extraBookings: Booking[];
  /** The C1 message sent by C1-send: the server's id, and the id sent (its identifier value). */
  c1?: { id: string; sentId: string };
  /** C4-close closed the encounter. */
  closed?: boolean;
}

export interface RunSettings {
  profile: Profile;
  client: PdeskClient;
  inputs: CheckInputs;
  write: boolean;
  signal?: AbortSignal;
  /** A request slower than this is a warning. */
  slowMs: number;
  /** How a face names an input (`--service-category` on the command line). */
  label: (field: InputName | 'write' | 'only') => string;
  now: Date;
  /** Check ids selected for this run (a check needing an earlier one that was not selected says so). */
  selected: ReadonlySet<string>;
}

interface Shared {
  exchanges: Exchange[];
  value: Promise<unknown>;
}

export class Run {
  /** Where the client's observer puts each exchange: the running check's list, or a shared read's. */
  sink: Exchange[] = [];
  readonly created: CreatedResource[] = [];
  readonly data: RunData = { extraBookings: [] };
  private readonly memo = new Map<string, Shared>();

  constructor(readonly settings: RunSettings) {}

  /** The client's `observe` hook. */
  readonly observe = (e: Exchange): void => {
    this.sink.push(e);
  };

  /**
   * A read made once per run and used by several checks (the week's slots, the medication list): its exchanges
   * are attached to every check that uses it, and a failure is thrown to each of them.
   */
  async shared<T>(key: string, read: () => Promise<T>): Promise<T> {
    let m = this.memo.get(key);
    if (!m) {
      const exchanges: Exchange[] = [];
      const outer = this.sink;
      this.sink = exchanges;
      const value = read();
      m = { exchanges, value };
      this.memo.set(key, m);
      try {
        await value;
      } catch {
        /* thrown to each user below */
      } finally {
        this.sink = outer;
      }
    }
    this.sink.push(...m.exchanges);
    return m.value as Promise<T>;
  }

  /** Record a resource a write check created (listed in the report whatever happens next). */
  recordCreated(r: CreatedResource): CreatedResource {
    this.created.push(r);
    return r;
  }
}

/** At most this many messages per check; the rest are counted in a last one. */
export const MAX_MESSAGES = 100;

export class CheckContext implements MessageSink {
  readonly messages: CheckMessage[] = [];
  dropped = 0;

  constructor(
    readonly run: Run,
    readonly info: CheckInfo,
  ) {}

  get profile(): Profile {
    return this.run.settings.profile;
  }
  get client(): PdeskClient {
    return this.run.settings.client;
  }
  get signal(): AbortSignal | undefined {
    return this.run.settings.signal;
  }
  get data(): RunData {
    return this.run.data;
  }

  /** An input the check declared in `needs` (the runner skips the check when it is missing). */
  input(name: InputName): string {
    const v = this.run.settings.inputs[name];
    if (!v) throw new SkipCheck(`needs ${this.run.settings.label(name)}`);
    return v;
  }

  add(m: CheckMessage): void {
    if (this.messages.length < MAX_MESSAGES) this.messages.push(m);
    else this.dropped++;
  }
  addAll(ms: readonly (CheckMessage | undefined)[]): void {
    for (const m of ms) if (m) this.add(m);
  }
  error(text: string, path?: string): void {
    this.add({ type: 'error', text, ...(path ? { path } : {}) });
  }
  warning(text: string, path?: string): void {
    this.add({ type: 'warning', text, ...(path ? { path } : {}) });
  }
  note(text: string, path?: string): void {
    this.add({ type: 'info', text, ...(path ? { path } : {}) });
  }

  skip(reason: string): never {
    throw new SkipCheck(reason);
  }

  /**
   * There is nothing for the claim to be judged on (no slots, no roles): `skip` with the reason, never `pass`. A check
   * that already found an error fails on it instead.
   */
  nothingToJudge(reason: string): void {
    if (!this.messages.some((m) => m.type === 'error')) throw new SkipCheck(reason);
  }

  /**
   * Something this check needs from another operation (a free slot from A4, a request from M1): if that read
   * fails, this check is skipped naming it, since the failure is the other operation's, reported by its checks.
   */
  async prerequisite<T>(op: string, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (e) {
      if (e instanceof SkipCheck) throw e;
      const why = (e as Error)?.message ?? String(e);
      throw new SkipCheck(`needs an answer from ${op}, which failed: ${why}`);
    }
  }

  /** Skip unless an earlier check of the chain ran: names it, and says so when `--only` left it out. */
  needsEarlier(checkId: string, what: string): never {
    const selected = this.run.settings.selected.has(checkId);
    throw new SkipCheck(
      selected
        ? `needs ${what}, which ${checkId} did not make`
        : `needs ${what} made by ${checkId}: add it to ${this.run.settings.label('only')}`,
    );
  }
}

/** A check of the suite: what it is, and how it runs. */
export interface CheckDef extends CheckInfo {
  run(c: CheckContext): Promise<void>;
}

/** A check definition; `needs` and `write` default to none and false. */
export function defineCheck(d: Omit<CheckDef, 'needs' | 'write'> & Partial<Pick<CheckDef, 'needs' | 'write'>>): CheckDef {
  return { needs: [], write: false, ...d };
}
