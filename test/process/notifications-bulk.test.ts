/**
 * Bulk sends as real processes, for what only a process shows: kill -9 in the middle of a run, Ctrl-C as a real
 * SIGINT, and a second process refused while another holds the journal (its lock names the pid). The reruns
 * after them run in-process (test/helpers/run.ts). Everything else about bulk sends is in-process in
 * test/core/bulk/notifications.test.ts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { failedRows, journalLines, journalOf, peopleCsv, received, sandbox, send, until } from '../helpers/bulk.js';
import { auditPath, readAudit } from '../../src/core/audit.js';
import { BIN, type CliResult } from '../helpers/cli.js';
import type { Env } from '../helpers/run.js';

/**
 * Run the CLI as a child we can signal; `fileSizeKb` runs it under `ulimit -f` (with SIGXFSZ ignored), so that a write
 * past that size fails with EFBIG, as on a full disk.
 */
function start(env: Env, args: string[], fileSizeKb?: number): { child: ChildProcess; done: Promise<CliResult> } {
  const [cmd, argv] =
    fileSizeKb === undefined
      ? [process.execPath, [BIN, ...args]]
      : ['bash', ['-c', `trap '' XFSZ; ulimit -f ${fileSizeKb}; exec "$0" "$@"`, process.execPath, BIN, ...args]];
  const child = spawn(cmd, argv, {
    env: { ...process.env, NO_COLOR: '1', PDESK_CONFIG_DIR: env.configDir, PDESK_PROFILE: undefined } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d) => (stderr += d));
  const done = new Promise<CliResult>((resolve) => {
    child.on('close', (code, signal) =>
      resolve({
        code: code ?? (signal === 'SIGKILL' ? 137 : 128),
        stdout,
        stderr,
        json: () => JSON.parse(stdout),
      }),
    );
  });
  return { child, done };
}

describe.concurrent('bulk send interrupted (a process)', () => {
  it('kill -9 mid-run, then reruns: nothing acknowledged is sent twice, and every row is eventually sent', async () => {
    const env = await sandbox({ latencyMs: 15 });
    const csv = peopleCsv(400);
    const run = start(env, send(csv));
    await until(() => env.sandbox.state.notifications.length >= 60);
    run.child.kill('SIGKILL');
    expect((await run.done).code).toBe(137);
    await new Promise((r) => setTimeout(r, 50)); // requests already sent still land at the server

    const journal = journalOf(env, csv);
    const acknowledged = new Set(
      journalLines(journal)
        .filter((l) => l.state === 'ok')
        .map((l) => l.row as number),
    );
    expect(acknowledged.size).toBeGreaterThan(0);
    // The writes the audit trail holds at the kill: a row counts as done only after its request's audit record is
    // on disk, and the request slot is freed at the answer, so answered rows may wait on the audit's fsync.
    type Sent = { contained: Array<{ telecom: Array<{ value: string }> }> };
    const auditedEmails = new Set(
      readAudit(auditPath(env.configDir, 'sandbox')).records.map((r) => (r.body as Sent).contained[0]!.telecom[0]!.value),
    );

    // No row is acknowledged in the journal without its request's audit record (written first, in the same turn).
    for (const row of acknowledged) expect(auditedEmails.has(`user${row}@example.org`)).toBe(true);

    const second = await env.run(send(csv));
    const s2 = second.json();
    expect(s2.skipped).toBe(acknowledged.size);
    expect(second.code).toBe(s2.uncertain > 0 ? 5 : 0);
    const uncertain = s2.uncertain ? failedRows(s2.failedCsv).map((r) => r.email!) : [];
    // Uncertain: only the requests in flight at the kill (at most the concurrency, 8): a row's outcome line is
    // written in the turn of its answer, after its audit line, before any row started after it; a row that is
    // uncertain but audited was answered.
    expect(s2.uncertain).toBeLessThanOrEqual(8);
    expect(uncertain.filter((e) => !auditedEmails.has(e)).length).toBeLessThanOrEqual(8);
    const got = received(env);
    expect([...got.values()].every((c) => c === 1)).toBe(true); // no duplicates at all
    for (let i = 1; i <= 400; i++) {
      const email = `user${i}@example.org`;
      expect(got.has(email) || uncertain.includes(email)).toBe(true);
    }

    const third = await env.run(send(csv, '--resend-uncertain'));
    expect(third.code).toBe(0);
    const final = received(env);
    expect(final.size).toBe(400);
    for (const [email, count] of final) if (count > 1) expect(uncertain).toContain(email); // only what we were told might repeat
    for (const row of acknowledged) expect(final.get(`user${row}@example.org`)).toBe(1);
  }, 20_000);

  it('Ctrl-C stops starting rows, lets in-flight ones finish and record, prints the summary and exits 130', async () => {
    const env = await sandbox({ latencyMs: 15 });
    const csv = peopleCsv(400);
    const run = start(env, send(csv));
    await until(() => env.sandbox.state.notifications.length >= 40);
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.code).toBe(130);
    const s = r.json();
    expect(s.interrupted).toBe(true);
    expect(s.sent).toBeLessThan(400);
    expect(s.uncertain).toBe(0);
    expect(r.stderr).toContain('interrupted; finishing');
    expect(r.stderr).toContain('run the same command again');
    await new Promise((res) => setTimeout(res, 50));
    expect(env.sandbox.state.notifications).toHaveLength(s.sent); // every request that went out was recorded

    const again = await env.run(send(csv));
    expect(again.code).toBe(0);
    expect(again.json()).toMatchObject({ sent: 400 - s.sent, skipped: s.sent, uncertain: 0 });
    const got = received(env);
    expect(got.size).toBe(400);
    expect([...got.values()].every((c) => c === 1)).toBe(true);
  }, 20_000);

  // The audit trail (with bodies) fills first: its intents of the whole look-ahead (768 rows) are written ahead, so
  // the limit leaves room for them and a few hundred rows. The journal fills first when it starts large: a journal
  // of earlier runs (here, run lines: a reader skips them), written before this run.
  it.skipIf(process.platform !== 'linux').for([
    { bodies: true, fills: 'audit trail', limitKb: 1000 },
    { bodies: false, fills: 'journal', limitKb: 600 },
  ])(
    'the disk fills mid-run ($fills first): the run stops naming it (exit 1), and reruns send every row',
    { timeout: 30_000 },
    async ({ bodies, fills, limitKb }) => {
      const env = await sandbox({}, { audit: { bodies } });
      const csv = peopleCsv(3000);
      if (fills === 'journal') {
        const { mkdirSync, writeFileSync } = await import('node:fs');
        const { dirname } = await import('node:path');
        const { JOURNAL_KIND, JOURNAL_VERSION, shortHash } = await import('../../src/core/bulk/journal.js');
        const header = {
          journal: JOURNAL_KIND,
          version: JOURNAL_VERSION,
          template: shortHash(JSON.stringify({ text: 'Hello {name}', topic: 'News', emailColumn: 'email' })),
          emailColumn: 'email',
          csv,
          created: new Date().toISOString(),
        };
        const run = `${JSON.stringify({ run: new Date().toISOString(), boot: null, pid: 1 })}\n`;
        mkdirSync(dirname(journalOf(env, csv)), { recursive: true });
        // Room left for the look-ahead's `sending` lines and a few hundred rows, the audit trail far from full.
        writeFileSync(journalOf(env, csv), `${JSON.stringify(header)}\n${run.repeat(Math.floor(500_000 / run.length))}`);
      }
      // limitKb per file (ulimit -f): full after a few hundred rows.
      const full = await start(env, send(csv), limitKb).done;
      expect(full.code).toBe(1);
      expect(full.stderr).toMatch(new RegExp(`^pdesk: Cannot write the ${fills} \\S+ \\(EFBIG\\)`, 'm'));
      expect(full.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(full.stderr).toContain('The disk (or a file size limit) is full: make room, then run the same command again.');
      const first = full.json();
      expect(first.sent).toBeGreaterThan(0);
      expect(first.sent).toBeLessThan(3000);
      // Room again: the rerun skips what was acknowledged and sends the rest; rows whose outcome the full disk kept
      // out of the journal are uncertain (listed, not resent), and a run told to sends them.
      const second = await env.run(send(csv));
      const s2 = second.json();
      // A row the failing run counted uncertain may have had its outcome line written before the disk filled.
      expect(s2.skipped).toBeGreaterThanOrEqual(first.sent);
      expect(s2.skipped).toBeLessThanOrEqual(first.sent + first.uncertain);
      expect(s2.sent + s2.skipped + s2.uncertain).toBe(3000);
      expect(s2.uncertain).toBeLessThanOrEqual(first.uncertain + 8);
      if (s2.uncertain) expect((await env.run(send(csv, '--resend-uncertain'))).code).toBe(0);
      const got = received(env);
      expect(got.size).toBe(3000);
      // Only an uncertain row, resent on request, can have reached the portal twice.
      expect([...got.values()].filter((c) => c > 1).length).toBeLessThanOrEqual(s2.uncertain);
      expect([...got.values()].every((c) => c <= 2)).toBe(true);
    },
  );

  it('a second run on the same journal while one is running is refused', async () => {
    const env = await sandbox({ latencyMs: 20 });
    const csv = peopleCsv(2000); // 5 s at full speed: still running when the second one starts
    const run = start(env, send(csv));
    await until(() => env.sandbox.state.notifications.length >= 5);
    const r = await env.run(send(csv));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is in use by another pdesk \(pid \d+\)/);
    run.child.kill('SIGINT');
    await run.done;
  }, 20_000);
});
