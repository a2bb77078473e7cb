import { existsSync, mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rowHash, shortHash } from '../../../src/core/bulk/journal.js';
import { bootId } from '../../../src/core/durable-log.js';
import { DEFAULT_CONCURRENCY, classify, failedCsvPath } from '../../../src/core/bulk/notifications.js';
import { type ClientOptions, PdeskClient } from '../../../src/core/client.js';
import type { Profile } from '../../../src/core/profile/schema.js';
import { HttpError, NetworkError } from '../../../src/core/errors.js';
import { csvFile, failedRows, journalLines, journalOf, peopleCsv, posts, received, sandbox, send, until } from '../../helpers/bulk.js';
import { run as runPdesk, tempDir, writeProfiles } from '../../helpers/run.js';
import type { Signal } from '../../../src/cli/io.js';

describe.concurrent('bulk send with failures, then a rerun', () => {
  it('3000 rows at a 10% fail rate: exit 5, failures in the failed CSV; the rerun sends only those; each address exactly once', async () => {
    const env = await sandbox({ failRate: 0.1, recordRequests: false });
    const csv = peopleCsv(3000);
    const first = await env.run(send(csv));
    expect(first.code).toBe(5);
    const s1 = first.json();
    expect(s1.sent + s1.failed).toBe(3000);
    expect(s1.failed).toBeGreaterThan(150);
    expect(s1.failed).toBeLessThan(450);
    expect(s1).toMatchObject({ skipped: 0, uncertain: 0, journal: journalOf(env, csv), failedCsv: failedCsvPath(journalOf(env, csv)) });
    expect(s1.journal.startsWith(join(env.configDir, 'journals', 'sandbox'))).toBe(true);
    expect(first.stderr).toContain(`pdesk: ${s1.failed} of 3000 rows failed.`);
    expect(env.sandbox.state.notifications).toHaveLength(s1.sent);
    const failed = failedRows(s1.failedCsv);
    expect(failed).toHaveLength(s1.failed);
    expect(failed[0]).toMatchObject({ pdesk_status: '503' });
    expect(failed[0]!.pdesk_reason).toContain('HTTP 503 Service Unavailable');
    expect(failed.every((r) => !received(env).has(r.email!))).toBe(true);

    env.sandbox.setFailRate(0);
    const second = await env.run(send(csv));
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.json()).toEqual({ sent: s1.failed, skipped: s1.sent, failed: 0, uncertain: 0, journal: s1.journal });
    expect(existsSync(s1.failedCsv)).toBe(false);
    const got = received(env);
    expect(got.size).toBe(3000);
    expect([...got.values()].every((n) => n === 1)).toBe(true);

    const third = await env.run(send(csv));
    expect(third.code).toBe(0);
    expect(third.json()).toMatchObject({ sent: 0, skipped: 3000 });
    expect(env.sandbox.state.notifications).toHaveLength(3000);
  }, 30_000);
});

// Wall time, so few rows: the numbers (--rate 50 on 200 rows, a 429 with Retry-After: 1 every tenth request).
describe.concurrent('the pace of a run: --rate and 429 answers', () => {
  it('--rate 50 spaces 200 rows over at least 3.5 s; every row sent once', async () => {
    const env = await sandbox();
    const csv = peopleCsv(200);
    const t = Date.now();
    const r = await env.run(send(csv, '--rate', '50/s'));
    const ms = Date.now() - t;
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ sent: 200, failed: 0, uncertain: 0 });
    expect(ms).toBeGreaterThanOrEqual(3500);
    const at = posts(env).map((q) => Date.parse(q.at));
    expect(at.at(-1)! - at[0]!).toBeGreaterThanOrEqual(3500); // spread over the run, not a burst then a wait
    expect([...received(env).values()].every((n) => n === 1)).toBe(true);
  }, 20_000);

  it('a 429 with Retry-After: 1 to every tenth request slows the run down and fails no row', async () => {
    const throttled = await sandbox({ throttleEvery: 10 });
    const t = Date.now();
    const r = await throttled.run(send(peopleCsv(20)));
    const ms = Date.now() - t;
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ sent: 20, failed: 0, uncertain: 0 });
    const answered429 = posts(throttled).length - 20;
    expect(answered429).toBeGreaterThanOrEqual(2); // every tenth of at least 20 requests
    expect(journalLines(r.json().journal).filter((l) => l.state === 'throttled')).toHaveLength(answered429);
    // Slower by the pauses themselves, whatever the machine's load: no request arrived for a Retry-After (1 s).
    const at = posts(throttled).map((q) => Date.parse(q.at));
    expect(Math.max(...at.slice(1).map((x, i) => x - at[i]!))).toBeGreaterThanOrEqual(950);
    expect(ms).toBeGreaterThanOrEqual(1000);
    const got = received(throttled);
    expect(got.size).toBe(20);
    expect([...got.values()].every((n) => n === 1)).toBe(true);
  }, 20_000);
});

describe.concurrent('placeholders and columns', () => {
  it('fills {column} placeholders in --text and --topic per row', async () => {
    const env = await sandbox();
    const csv = csvFile('email,name,city\nann@example.org,Ann,Delft\nbob@example.org,Bob,Gouda\n');
    const r = await env.run([
      'notifications',
      'send',
      '--csv',
      csv,
      '--topic',
      'For {name}',
      '--text',
      'Hello {name} in {city} {{ok}}',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ sent: 2, failed: 0 });
    const bodies = posts(env).map(
      (p) =>
        p.body as {
          topic: { text: string };
          payload: Array<{ contentString: string }>;
          contained: Array<{ telecom: Array<{ value: string }> }>;
        },
    );
    const byEmail = Object.fromEntries(bodies.map((b) => [b.contained[0]!.telecom[0]!.value, b]));
    expect(byEmail['ann@example.org']!.topic.text).toBe('For Ann');
    expect(byEmail['ann@example.org']!.payload[0]!.contentString).toBe('Hello Ann in Delft {ok}');
    expect(byEmail['bob@example.org']!.payload[0]!.contentString).toBe('Hello Bob in Gouda {ok}');
    expect(bodies[0]).toMatchObject({
      recipient: [{ reference: '#p1' }],
      category: [{ coding: [{ system: 'portal.example.communication-category', code: 'notification' }] }],
    });
  });

  it('a placeholder naming no column exits 2 naming it; nothing sent, no journal', async () => {
    const env = await sandbox();
    const csv = csvFile('email,name\nann@example.org,Ann\n');
    const r = await env.run(['notifications', 'send', '--csv', csv, '--topic', 'Hi {surname}', '--text', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--topic uses the placeholder {surname}, but people.csv has no column "surname".');
    expect(r.stderr).toContain('columns: "email", "name"');
    expect(posts(env)).toHaveLength(0);
    expect(existsSync(journalOf(env, csv))).toBe(false);
    const r2 = await env.run(['notifications', 'send', '--csv', csv, '--topic', 'Hi', '--text', '{greeting} {name}']);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain('--text uses the placeholder {greeting}');
    expect(posts(env)).toHaveLength(0);
  });

  it('a missing email column exits 2 naming it; --email-column picks another', async () => {
    const env = await sandbox();
    const csv = csvFile('mail,name\nann@example.org,Ann\n');
    const r = await env.run(send(csv));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      '--csv names people.csv, which has no column "email" for the email address; name the address column with --email-column.',
    );
    expect(posts(env)).toHaveLength(0);
    const r3 = await env.run(send(csv, '--email-column', 'mail'));
    expect(r3.code).toBe(0);
    expect([...received(env).keys()]).toEqual(['ann@example.org']);
  });

  it('quoted fields with separators, quotes and newlines, a BOM and ; as separator', async () => {
    const env = await sandbox();
    const csv = csvFile(
      '\ufeffemail;name;note\r\n' + 'ann@example.org;"Doe; Ann";"line 1\r\nline ""2"""\r\n' + '"bob@example.org";Bob, Jr.;plain\r\n',
    );
    const r = await env.run(['notifications', 'send', '--csv', csv, '--topic', '{name}', '--text', '{note}', '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ sent: 2, failed: 0 });
    const byEmail = Object.fromEntries(
      env.sandbox.state.notifications.map((n) => [n.contained[0]!.telecom[0]!.value, [n.topic.text, n.payload[0]!.contentString]]),
    );
    expect(byEmail).toEqual({
      'ann@example.org': ['Doe; Ann', 'line 1\r\nline "2"'],
      'bob@example.org': ['Bob, Jr.', 'plain'],
    });
  });

  it('rows with a bad address or the wrong number of fields fail (exit 4) and are listed; the others are sent', async () => {
    const env = await sandbox();
    const csv = csvFile('email,name\nann@example.org,Ann\nnot-an-address,Bad\nbob@example.org,Bob,extra\n,Nobody\ncy@example.org,Cy\n');
    const r = await env.run(send(csv));
    expect(r.code).toBe(4);
    expect(r.json()).toMatchObject({ sent: 2, failed: 3, uncertain: 0 });
    expect([...received(env).keys()].sort()).toEqual(['ann@example.org', 'cy@example.org']);
    const text = readFileSync(r.json().failedCsv, 'utf8');
    expect(text).toContain('"""not-an-address"" in column ""email"" is not an email address"');
    expect(text).toContain('the row has 3 fields, the header has 2');
    expect(text).toContain('no email address in column ""email""');
  });

  it('opens one connection per request slot (--concurrency 3): the client is made with 3 connections, and the portal sees at most 3', async () => {
    const env = await sandbox();
    const csv = peopleCsv(300);
    const made: Array<number | undefined> = [];
    const makeClient = (p: Profile, o: ClientOptions) => {
      made.push(o.connections);
      return new PdeskClient(p, o);
    };
    const r = await env.run(send(csv, '--concurrency', '3'), { makeClient });
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ sent: 300 });
    expect(made).toEqual([3]);
    const connections = new Set(posts(env).map((p) => p.peerPort));
    expect(connections.has(undefined)).toBe(false);
    expect(connections.size).toBeGreaterThanOrEqual(1);
    expect(connections.size).toBeLessThanOrEqual(3);
    // Without --concurrency: the default number of slots.
    const other = peopleCsv(5, 'other.csv');
    made.length = 0;
    expect((await env.run(send(other), { makeClient })).code).toBe(0);
    expect(made).toEqual([DEFAULT_CONCURRENCY]);
  });

  it('a CSV that breaks part-way stops the run with exit 2; the rows before the problem are sent once, and the fixed file sends the rest', async () => {
    const env = await sandbox();
    const good = Array.from({ length: 4000 }, (_, i) => `user${i}@example.org,User ${i}`); // ~120 kB: two chunks
    const csv = csvFile(`email,name\n${good.join('\n')}\nbob@example.org,"Bob"x\n`);
    const r = await env.run(send(csv));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--csv names people\.csv, which is not valid CSV: got "x" at line 4002/);
    expect(r.stderr).toContain('Rows before the problem were processed; fix the file and run again.');
    const sent = posts(env).length;
    expect(sent).toBeGreaterThan(1000);
    expect(sent).toBeLessThanOrEqual(4000);
    writeFileSync(csv, `email,name\n${good.join('\n')}\nbob@example.org,Bob\n`);
    const again = await env.run(send(csv));
    expect(again.code).toBe(0);
    expect(again.json()).toMatchObject({ sent: 4001 - sent, skipped: sent });
    expect([...received(env).values()].every((count) => count === 1)).toBe(true);
    expect(received(env).size).toBe(4001);
  });

  it('--dry-run prints the first request, sends nothing and writes no journal', async () => {
    const env = await sandbox();
    const csv = peopleCsv(3);
    const r = await env.run(send(csv, '--dry-run'));
    expect(r.code).toBe(0);
    const req = r.json();
    expect(req).toMatchObject({ method: 'POST', url: `${env.sandbox.url}/portal/Communication` });
    expect(req.body.payload[0].contentString).toBe('Hello User 1');
    expect(r.stderr).toContain('dry run: the request for row 1');
    expect(posts(env)).toHaveLength(0);
    expect(existsSync(journalOf(env, csv))).toBe(false);
  });

  it('bad bulk options exit 2 before anything is sent', async () => {
    const env = await sandbox();
    const csv = peopleCsv(2);
    const zero = await env.run(send(csv, '--concurrency', '0'));
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--concurrency must be a positive whole number, not "0".');
    const both = await env.run(send(csv, '--email', 'a@example.org'));
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--csv takes the addresses from the CSV and cannot be combined with --email.');
    const missing = await env.run(['notifications', 'send', '--csv', csv, '--text', 'x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--topic is required with --csv.');
    const absent = await env.run(send(join(tempDir(), 'nope.csv')));
    expect(absent.code).toBe(2);
    expect(absent.stderr).toMatch(/--csv names .*nope\.csv, which cannot be read \(ENOENT\)/);
    const dirJournal = await env.run(send(csv, '--journal', tempDir()));
    expect(dirJournal.code).toBe(2);
    expect(dirJournal.stderr).toMatch(/--journal names .*, which cannot be read \(EISDIR\)/);
    expect(posts(env)).toHaveLength(0);
  });

  it('an empty CSV (no header) exits 2', async () => {
    const env = await sandbox();
    const r = await env.run(send(csvFile('')));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('has no header line');
  });
});

describe.concurrent('journal: resuming safely', () => {
  it('a torn last line is skipped with a warning; its row is uncertain, not resent; --resend-uncertain sends it', async () => {
    const env = await sandbox();
    const csv = peopleCsv(40);
    expect((await env.run(send(csv))).code).toBe(0);
    const journal = journalOf(env, csv);
    const lines = journalLines(journal);
    const last = lines[lines.length - 1]!;
    expect(last.state).toBe('ok');
    truncateSync(journal, statSync(journal).size - 12); // crash in the middle of the last record
    const before = env.sandbox.state.notifications.length;

    const r = await env.run(send(csv));
    expect(r.stderr).toMatch(/warning: the last line of the journal .* is incomplete/);
    expect(r.code).toBe(5);
    expect(r.json()).toMatchObject({ sent: 0, skipped: 39, failed: 0, uncertain: 1 });
    expect(env.sandbox.state.notifications.length).toBe(before);
    const listed = failedRows(r.json().failedCsv);
    expect(listed.map((x) => Number(x.pdesk_row))).toEqual([last.row]);
    expect(listed[0]!.pdesk_reason).toContain('a rerun sends it only when told to resend uncertain rows');
    for (const l of readFileSync(journal, 'utf8').trim().split('\n')) JSON.parse(l); // repaired: every line whole

    const r2 = await env.run(send(csv, '--resend-uncertain'));
    expect(r2.code).toBe(0);
    expect(r2.json()).toMatchObject({ sent: 1, skipped: 39, uncertain: 0 });
  });

  it('rows journaled as sending with no outcome are not resent by default, and are with --resend-uncertain', async () => {
    const env = await sandbox();
    const csv = csvFile('email,name\na@example.org,A\nb@example.org,B\nc@example.org,C\n');
    const journal = join(tempDir(), 'hand.ndjson');
    const header = {
      journal: 'pdesk-notifications',
      version: 1,
      template: shortHash(JSON.stringify({ text: 'Hello {name}', topic: 'News', emailColumn: 'email' })),
      emailColumn: 'email',
      csv,
      created: '2026-01-01T00:00:00.000Z',
    };
    const rec = (row: number, fields: string[], state: string, extra = {}) =>
      JSON.stringify({ row, hash: rowHash(fields), state, ...extra });
    writeFileSync(
      journal,
      [
        JSON.stringify(header),
        rec(1, ['a@example.org', 'A'], 'sending'),
        rec(1, ['a@example.org', 'A'], 'ok', { status: 201 }),
        rec(2, ['b@example.org', 'B'], 'sending'),
        '',
      ].join('\n'),
    );
    const r = await env.run(send(csv, '--journal', journal));
    expect(r.code).toBe(5);
    expect(r.json()).toMatchObject({ sent: 1, skipped: 1, failed: 0, uncertain: 1, failedCsv: `${journal}.failed.csv` });
    expect([...received(env).keys()]).toEqual(['c@example.org']);
    expect(r.stderr).toContain('pdesk: 1 of 3 rows has an unknown outcome.');
    const listed = failedRows(`${journal}.failed.csv`);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ pdesk_row: '2', email: 'b@example.org' });
    expect(listed[0]!.pdesk_reason).toContain('not resent');

    const again = await env.run(send(csv, '--journal', journal));
    expect(again.json()).toMatchObject({ sent: 0, uncertain: 1 });
    expect(received(env).has('b@example.org')).toBe(false);

    const forced = await env.run(send(csv, '--journal', journal, '--resend-uncertain'));
    expect(forced.code).toBe(0);
    expect(forced.json()).toMatchObject({ sent: 1, skipped: 2, uncertain: 0 });
    expect(received(env).get('b@example.org')).toBe(1);
    expect(received(env).has('a@example.org')).toBe(false); // acknowledged in the journal: never sent
  });

  it('a row journaled as sending in this boot, with no started line, was never sent: it is sent by default', async () => {
    const boot = bootId();
    if (!boot) return; // no boot id here: such rows stay uncertain (covered above)
    const env = await sandbox();
    const csv = csvFile('email,name\na@example.org,A\n');
    const journal = journalOf(env, csv);
    mkdirSync(dirname(journal), { recursive: true });
    const template = shortHash(JSON.stringify({ text: 'Hello {name}', topic: 'News', emailColumn: 'email' }));
    writeFileSync(
      journal,
      `${JSON.stringify({ journal: 'pdesk-notifications', version: 1, template, emailColumn: 'email', csv, created: 'x' })}\n` +
        `${JSON.stringify({ run: 'r', boot, pid: 1 })}\n${JSON.stringify({ row: 1, hash: rowHash(['a@example.org', 'A']), state: 'sending' })}\n`,
    );
    const r = await env.run(send(csv));
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ sent: 1, uncertain: 0 });
  });

  it('a changed CSV or template is refused with exit 2 before anything is sent', async () => {
    const env = await sandbox();
    const csv = peopleCsv(5);
    expect((await env.run(send(csv))).code).toBe(0);
    const n = env.sandbox.state.notifications.length;

    writeFileSync(
      csv,
      `${readFileSync(csv, 'utf8').replace('user3@example.org,User 3', 'user3@example.org,User Three')}user6@example.org,User 6\n`,
    );
    const r = await env.run(send(csv));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--csv names people.csv, which changed since the journal was written: row 3 differs');
    expect(r.stderr).toContain('Restore the CSV, or give --journal a new file to start a separate send');
    expect(env.sandbox.state.notifications.length).toBe(n);

    const r2 = await env.run(['notifications', 'send', '--csv', csv, '--topic', 'News', '--text', 'Hi {name}', '--json']);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain('was written for another --text, --topic or --email-column');
    expect(env.sandbox.state.notifications.length).toBe(n);

    // Rows appended to an unchanged CSV are simply new rows.
    writeFileSync(csv, readFileSync(csv, 'utf8').replace('User Three', 'User 3'));
    const r3 = await env.run(send(csv));
    expect(r3.code).toBe(0);
    expect(r3.json()).toMatchObject({ sent: 1, skipped: 5 });
  });

  it('a journal that is not a pdesk journal is refused and left untouched', async () => {
    const env = await sandbox();
    const csv = peopleCsv(2);
    const other = join(tempDir(), 'notes.txt');
    writeFileSync(other, 'my notes\n');
    const r = await env.run(send(csv, '--journal', other));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not the journal of a pdesk bulk send');
    expect(readFileSync(other, 'utf8')).toBe('my notes\n');
    expect(posts(env)).toHaveLength(0);
  });
});

describe.concurrent('interruptions', () => {
  it('Ctrl-C (SIGINT from the IO) stops starting rows, lets in-flight ones finish and record, prints the summary and exits 130', async () => {
    const env = await sandbox({ latencyMs: 15 });
    const csv = peopleCsv(400);
    let signal: (s: Signal) => void = () => undefined;
    const running = env.run(send(csv), { signals: (deliver) => (signal = deliver) });
    await until(() => env.sandbox.state.notifications.length >= 40);
    signal('SIGINT');
    const r = await running;
    expect(r.code).toBe(130);
    const s = r.json();
    expect(s.interrupted).toBe(true);
    expect(s.sent).toBeLessThan(400);
    expect(s.uncertain).toBe(0);
    expect(r.stderr).toContain('pdesk: interrupted; finishing');
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

  it('a second Ctrl-C quits at once with exit 130', async () => {
    const env = await sandbox({ latencyMs: 50 });
    const csv = peopleCsv(400);
    let signal: (s: Signal) => void = () => undefined;
    const running = env.run(send(csv), { signals: (deliver) => (signal = deliver) });
    await until(() => env.sandbox.state.notifications.length >= 10);
    signal('SIGINT');
    signal('SIGINT');
    const r = await running;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('pdesk: quitting; rows in flight have no recorded outcome');
    expect(r.stdout).toBe('');
  }, 20_000);

  it('a portal that refuses connections stops the run early (exit 5); rows not sent are sent by the next run', async () => {
    const env = await sandbox();
    const csv = peopleCsv(500);
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    const down = tempDir();
    writeProfiles(down, [{ ...env.profile, portal: { baseUrl: `http://127.0.0.1:${port}/portal` } }]);
    const r = await runPdesk(send(csv), { configDir: down });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('pdesk: Stopped after 24 requests in a row could not connect to the portal.');
    expect(r.stderr).toContain('connection refused');
    const s = r.json();
    expect(s.sent).toBe(0);
    expect(s.failed).toBeGreaterThanOrEqual(24);
    expect(s.failed).toBeLessThan(100);

    const again = await env.run(send(csv));
    expect(again.code).toBe(0);
    expect(again.json()).toMatchObject({ sent: 500, skipped: 0, uncertain: 0 });
  });
});

describe('classify', () => {
  it('a definite answer is a failure to retry; 5xx and network errors are server-side', () => {
    expect(classify(new HttpError(422, { method: 'POST', url: 'u' }))).toMatchObject({ state: 'failed', status: 422, server: false });
    expect(classify(new HttpError(503, { method: 'POST', url: 'u' }))).toMatchObject({ state: 'failed', status: 503, server: true });
    expect(classify(new NetworkError('Cannot reach x (connection refused).', [], 'ECONNREFUSED'))).toMatchObject({
      state: 'failed',
      server: true,
    });
  });
  it('a lost connection or a time-out after sending is uncertain, never retried blindly', () => {
    expect(classify(new NetworkError('Cannot reach x (connection reset).', [], 'ECONNRESET')).state).toBe('unknown');
    expect(classify(new NetworkError('No answer within 30000 ms.', [], 'TIMEOUT')).state).toBe('unknown');
    expect(classify(new Error('boom')).state).toBe('unknown');
  });
  it('names the failed-rows CSV after the journal', () => {
    expect(failedCsvPath('/d/people.csv.journal.ndjson')).toBe('/d/people.csv.failed.csv');
    expect(failedCsvPath('/d/run1.log')).toBe('/d/run1.log.failed.csv');
  });
});
