/**
 * The audit trail after kill -9 (a process): a bulk send appends a record per request while it runs; killed
 * mid-run, it leaves a file `pdesk audit` reads (every line whole but perhaps a torn last one, skipped with a
 * warning), every row the journal acknowledged has its record (records are on disk before a row counts), every
 * record is of a request the sandbox received, and the next write lands as a whole line after it.
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
      body?: { contained?: Array<{ telecom: Array<{ value: string }> }> };
    }>;
    expect(records).toHaveLength(lines.length);
    expect(records.length).toBeGreaterThan(0);

    const emailOf = (r: (typeof records)[number]) => r.body!.contained![0]!.telecom[0]!.value;
    const audited = new Set(records.map(emailOf));
    const got = received(env);
    for (const r of records) {
      expect(r).toMatchObject({ op: 'C5', method: 'POST', status: 201 });
      expect(got.has(emailOf(r))).toBe(true);
    }
    const acknowledged = journalLines(journalOf(env, csv)).filter((l) => l.state === 'ok');
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const l of acknowledged) expect(audited.has(`user${l.row}@example.org`)).toBe(true);

    const next = await env.run(['notifications', 'send', '--email', 'after@example.org', '--topic', 'T', '--text', 'after the crash']);
    expect(next.code, next.stderr).toBe(0);
    const after = await env.run(['audit', '--json']);
    expect(after.stderr).toBe(audit.stderr); // a torn line stays skipped, and nothing else is
    const all = after.json() as typeof records;
    expect(all).toHaveLength(records.length + 1);
    expect(emailOf(all.at(-1)!)).toBe('after@example.org');
  }, 20_000);
});
