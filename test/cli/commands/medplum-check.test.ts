/**
 * `pdesk check --write` against the Medplum peer, in-process: the report names the dialect it ran with, lists the
 * test bookings Medplum did not cancel as not undone, and the run exits 7 for them (docs/cli.md "pdesk check").
 */
import { expect, test } from 'vitest';
import { medplumPeerForFile } from '../../helpers/medplum/peer.js';
import { run } from '../../helpers/run.js';

const mp = medplumPeerForFile();

test('check --write: the dialect in the report and its header; what could not be undone is listed and fails the run', async () => {
  const dir = mp.peer.configDir({ dialect: 'r4' });
  const argv = ['check', '--write', '--only', 'A6-book,A7-cancel'];
  const j = await run([...argv, '--json'], { configDir: dir });
  expect(j.code).toBe(7);
  const report = j.json<any>();
  expect(report).toMatchObject({ dialect: 'r4', write: true, summary: { pass: 1, fail: 1 } });
  expect(report.created).toEqual([
    {
      resource: expect.stringMatching(/^Appointment\/[0-9a-f-]{36}$/),
      op: 'A6',
      check: 'A6-book',
      note: 'NOT cancelled: A7 answered HTTP 201 Created, but the appointment is still "booked"',
      undo: 'failed',
    },
  ]);
  expect(j.stderr).toContain('Checks did not pass: 1 failed and 0 errored, 1 not undone.');

  const t = await run([...argv, '--output', 'table'], { configDir: dir, tty: { stdout: true }, columns: 160 });
  expect(t.code).toBe(7);
  expect(t.stdout).toMatch(/^pdesk check · profile medplum \(test\) · appointment API 2\.0\.0 · dialect r4 · read and write$/m);
  expect(t.stdout).toMatch(/^NOT undone \(1\): Appointment\/[0-9a-f-]{36}$/m);
  // Every test booking is still booked on the server, as reported.
  const booked = await mp.peer.repos.practice.searchResources({ resourceType: 'Appointment', filters: [] });
  expect(booked.filter((a: any) => a.comment?.startsWith('pdesk check:')).map((a: any) => a.status)).toEqual(['booked', 'booked']);
});
