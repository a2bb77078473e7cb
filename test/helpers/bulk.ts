/**
 * Helpers for the bulk-send tests (test/core/bulk/notifications.test.ts in-process, test/process/notifications-bulk
 * .test.ts as processes): a seeded sandbox per test (closed after the file), CSV files, what the portal received,
 * the journal, and a waiting loop.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll } from 'vitest';
import { defaultJournalPath } from '../../src/core/bulk/notifications.js';
import { type Env, tempDir, withSandbox } from './run.js';

const envs: Env[] = [];
export async function sandbox(o: Parameters<typeof withSandbox>[0] = {}, profile: Parameters<typeof withSandbox>[1] = {}): Promise<Env> {
  const e = await withSandbox({ seed: 42, ...o }, profile);
  envs.push(e);
  return e;
}
// Tests run concurrently (each with its own sandbox and files); the sandboxes close when the file is done.
afterAll(async () => {
  await Promise.all(envs.splice(0).map((e) => e.close()));
});

export function csvFile(content: string, name = 'people.csv'): string {
  const f = join(tempDir(), name);
  writeFileSync(f, content);
  return f;
}

export function peopleCsv(n: number, name = 'people.csv'): string {
  const lines = ['email,name'];
  for (let i = 1; i <= n; i++) lines.push(`user${i}@example.org,User ${i}`);
  return csvFile(`${lines.join('\n')}\n`, name);
}

/** How many notifications the portal stored per address. */
export function received(env: Env): Map<string, number> {
  const m = new Map<string, number>();
  for (const n of env.sandbox.state.notifications) {
    const email = n.contained[0]!.telecom[0]!.value;
    m.set(email, (m.get(email) ?? 0) + 1);
  }
  return m;
}

export const posts = (env: Env) => env.sandbox.received.filter((r) => r.method === 'POST' && r.path === '/portal/Communication');

/** The journal a run without --journal keeps: in the config folder, per profile and CSV file (cli.md). */
export const journalOf = (env: Env, csv: string) => defaultJournalPath(env.configDir, 'sandbox', csv);

export const send = (csv: string, ...more: string[]) => [
  'notifications',
  'send',
  '--csv',
  csv,
  '--topic',
  'News',
  '--text',
  'Hello {name}',
  '--json',
  ...more,
];

/** Rows of a CSV written by pdesk (failed rows), as objects keyed by the header. */
export function failedRows(path: string): Array<Record<string, string>> {
  return parse(readFileSync(path, 'utf8'), { columns: true }) as Array<Record<string, string>>;
}

export function journalLines(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

/** Wait until `cond` holds (every 5 ms, at most `ms`). */
export async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
