/**
 * The audit trail after kill -9 (a process): a bulk send writes each request's record ahead of it and completes it
 * at the answer; killed mid-run, it leaves a file `pdesk audit` reads (every line whole but perhaps a torn last
 * one, skipped with a warning), every row the journal acknowledged has its completed record (records are on disk
 * before a row counts), every answered record is of a request the sandbox received, the requests in flight read
 * as outcome unknown (at most one per request slot, each a row the journal has as started), the rows written ahead
 * and never started are not in it, and the next write lands as a whole line after it.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditPath } from '../../src/core/audit.js';
import { journalLines, journalOf, peopleCsv, received, sandbox, send, until } from '../helpers/bulk.js';
import { BIN } from '../helpers/cli.js';

describe('the audit trail after kill -9', () => {
  it('is readable, holds every acknowledged row, only requests that were sent, and takes the next write whole', async () => {
    const env = await sandbox({ latencyMs: 10 });
    const csv = peopleCsv(400);
    const child = spawn(process.execPath, [BIN, ...send(csv)], {
      env: { ...process.env, NO_COLOR: '1', PDESK_CONFIG_DIR: env.configDir, PDESK_PROFILE: undefined } as NodeJS.ProcessEnv,
      stdio: 'ignore',
    });
    const killed = new Promise<string | null>((r) => child.on('close', (_code, signal) => r(signal)));
    await until(() => env.sandbox.state.notifications.length >= 60);
    child.kill('SIGKILL');
    expect(await killed).toBe('SIGKILL');
    await new Promise((r) => setTimeout(r, 50)); // requests already sent still land at the server

    const path = auditPath(env.configDir, 'sandbox');
    const lines = readFileSync(path, 'utf8').split('\n');
    const last = lines.pop(); // '' when the file ends with a line break, else the torn line
    for (const l of lines) JSON.parse(l); // every line but a torn last one is whole
    const audit = await env.run(['audit', '--json']);
    expect(audit.code, audit.stderr).toBe(0);
    expect(audit.stderr).toBe(last ? expect.stringContaining('incomplete') : '');
    const records = audit.json() as Array<{
      op: string;
      method: string;
      status?: number;
      outcome?: string;
      body?: { contained?: Array<{ telecom: Array<{ value: string }> }> };
    }>;
    expect(records.length).toBeGreaterThan(0);

    const emailOf = (r: (typeof records)[number]) => r.body!.contained![0]!.telecom[0]!.value;
    const rowOf = (email: string) => Number(/^user(\d+)@/.exec(email)![1]);
    const answered = records.filter((r) => r.status !== undefined);
    const unknown = records.filter((r) => r.status === undefined);
    const got = received(env);
    for (const r of answered) {
      expect(r).toMatchObject({ op: 'C5', method: 'POST', status: 201 });
      expect(got.has(emailOf(r))).toBe(true);
    }
    // The journal's last word on each row.
    const state = new Map<number, string>();
    for (const l of journalLines(journalOf(env, csv)).slice(1)) if (typeof l.row === 'number') state.set(l.row, l.state as string);
    // In flight when killed: at most one per request slot (8), each started in the journal with no outcome.
    expect(unknown.length).toBeLessThanOrEqual(8);
    for (const r of unknown) {
      expect(r).toMatchObject({ op: 'C5', method: 'POST', outcome: 'unknown' });
      expect(state.get(rowOf(emailOf(r)))).toBe('started');
    }
    // Rows journaled (and their intents written) ahead but never started are not in the trail.
    const audited = new Set(records.map(emailOf));
    const queued = [...state].filter(([, s]) => s === 'sending').map(([row]) => row);
    expect(queued.length).toBeGreaterThan(0);
    for (const row of queued) expect(audited.has(`user${row}@example.org`)).toBe(false);
    const acknowledged = [...state].filter(([, s]) => s === 'ok').map(([row]) => row);
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const row of acknowledged) expect(answered.some((r) => emailOf(r) === `user${row}@example.org`)).toBe(true);

    const next = await env.run(['notifications', 'send', '--email', 'after@example.org', '--topic', 'T', '--text', 'after the crash']);
    expect(next.code, next.stderr).toBe(0);
    const after = await env.run(['audit', '--json']);
    expect(after.stderr).toBe(audit.stderr); // a torn line stays skipped, and nothing else is
    const all = after.json() as typeof records;
    expect(all).toHaveLength(records.length + 1);
    expect(all.at(-1)).toMatchObject({ status: 201 });
    expect(emailOf(all.at(-1)!)).toBe('after@example.org');
  }, 20_000);
});
