/**
 * The Systems screen's model: for every profile, each party's reachability (probe.ts) and its local counts
 * (local.ts), refreshed on demand — all profiles concurrently, a profile whose last round is still running is
 * left to finish — and reported piece by piece as answers arrive (`onChange`). `close()` abandons what runs
 * and closes the clients and stores. Nothing here waits on the caller: the TUI asks for a refresh and goes on.
 */
import type { Profile } from '../profile/schema.js';
import type { PdeskClient } from '../client.js';
import type { Party } from '../ops.js';
import type { DeskStore } from '../store/types.js';
import { type LocalCounts, LocalReader } from './local.js';
import { PROBE_TIMEOUT_MS, type PartyProbe, probeClient, probeParty } from './probe.js';

export interface SystemEntry {
  name: string;
  /** The valid profile; absent when the stored one is invalid. */
  profile?: Profile;
  /** Why the stored profile cannot be used. */
  invalid?: string;
  isDefault?: boolean;
  /** Not in the profile store (the `--sandbox` session's own profile). */
  unsaved?: boolean;
}

export interface SystemStatus extends SystemEntry {
  practice?: PartyProbe;
  portal?: PartyProbe;
  counts?: LocalCounts;
  /** A round of probes runs for this profile. */
  probing: boolean;
  /** The latest problem seen for it (probe or local files), kept until a newer one. */
  lastError?: { at: string; text: string };
  /** When its last round ended (ISO 8601). */
  refreshedAt?: string;
}

export interface MonitorOptions {
  /** Config folder (thread stores, journals); without it there are no counts. */
  dir?: string;
  /** The desk's store when it is the team store: chat counts are read there (the journals stay in `dir`). */
  store?: DeskStore;
  timeoutMs?: number;
  /** Called after every change, with every status (a new array each time). */
  onChange: (statuses: SystemStatus[]) => void;
  /** Build a probe client (tests); default `probeClient`. */
  makeClient?: (p: Profile, timeoutMs: number) => PdeskClient;
}

const PARTIES: readonly Party[] = ['practice', 'portal'];

export class SystemsMonitor {
  private list: SystemStatus[] = [];
  private readonly clients = new Map<string, { key: string; client: PdeskClient }>();
  private readonly local?: LocalReader;
  private readonly abort = new AbortController();
  private closed = false;

  constructor(private readonly o: MonitorOptions) {
    if (o.dir) this.local = new LocalReader(o.dir, o.store);
  }

  /** The profiles to watch; statuses of profiles kept are kept. */
  setEntries(entries: readonly SystemEntry[]): void {
    const old = new Map(this.list.map((s) => [s.name, s]));
    this.list = entries.map((e) => {
      const prev = old.get(e.name);
      return prev ? { ...prev, ...e } : { ...e, probing: false, ...(e.invalid ? { lastError: { at: now(), text: e.invalid } } : {}) };
    });
    this.emit();
  }

  statuses(): SystemStatus[] {
    return this.list;
  }

  /** Start a round for every profile not already probing; resolves when they are done (callers need not wait). */
  refresh(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return Promise.all(this.list.filter((s) => !s.probing).map((s) => this.round(s.name))).then(() => undefined);
  }

  private update(name: string, change: (s: SystemStatus) => Partial<SystemStatus>): void {
    if (this.closed) return;
    this.list = this.list.map((s) => (s.name === name ? { ...s, ...change(s) } : s));
    this.emit();
  }

  private emit(): void {
    if (!this.closed) this.o.onChange(this.list);
  }

  private client(p: Profile): PdeskClient {
    const key = JSON.stringify(p);
    const hit = this.clients.get(p.name);
    if (hit?.key === key) return hit.client;
    void hit?.client.close().catch(() => undefined);
    const client = (this.o.makeClient ?? probeClient)(p, this.o.timeoutMs ?? PROBE_TIMEOUT_MS);
    this.clients.set(p.name, { key, client });
    return client;
  }

  private async round(name: string): Promise<void> {
    const entry = this.list.find((s) => s.name === name);
    if (!entry) return;
    this.update(name, () => ({ probing: true }));
    const tasks: Promise<void>[] = [];
    const profile = entry.profile;
    if (profile) {
      const client = this.client(profile);
      for (const party of PARTIES)
        tasks.push(
          probeParty(client, party, { signal: this.abort.signal }).then((probe) =>
            this.update(name, () => ({
              [party]: probe,
              ...(probe.error ? { lastError: { at: probe.at, text: `${party}: ${probe.error}` } } : {}),
            })),
          ),
        );
    }
    if (this.local)
      tasks.push(
        this.local.counts(name).then(
          (counts) =>
            this.update(name, () => ({
              counts,
              ...(counts.warnings.length ? { lastError: { at: now(), text: counts.warnings[0]! } } : {}),
            })),
          (e) => this.update(name, () => ({ lastError: { at: now(), text: (e as Error).message } })),
        ),
      );
    await Promise.allSettled(tasks);
    this.update(name, () => ({ probing: false, refreshedAt: now() }));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort();
    const clients = [...this.clients.values()].map((c) => c.client);
    this.clients.clear();
    await Promise.allSettled([...clients.map((c) => c.close()), this.local?.close()]);
  }
}

const now = () => new Date().toISOString();
