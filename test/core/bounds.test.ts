/**
 * Read bounds (src/core/bounds.ts, decisions.md §3 "Bounds") against a hostile node:http practice system that serves
 * large pages with a fresh `next` link forever: a list command exits 6 naming the bound, `check` reports the cut as an
 * error and exits 7 with its report, and the server is asked for a bounded number of pages. One answer over
 * `limits.responseMB` is reported as too large. In-process commands over real HTTP.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, ReadBudget, responseBytes } from '../../src/core/bounds.js';
import { IncompleteListError } from '../../src/core/errors.js';
import { validateProfile } from '../../src/core/profile/schema.js';
import { stubServer } from '../helpers/http.js';
import { run, tempDir, writeProfiles } from '../helpers/run.js';

/** A page of `perPage` PractitionerRoles of ~1 kB each, and a link to a page never seen before. */
function endlessPage(res: ServerResponse, n: number, perPage: number): void {
  const entry = Array.from({ length: perPage }, (_, i) => ({
    resource: { resourceType: 'PractitionerRole', id: `r${n}-${i}`, note: 'x'.repeat(1000) },
  }));
  res.writeHead(200, { 'content-type': 'application/fhir+json' });
  res.end(
    JSON.stringify({
      resourceType: 'Bundle',
      type: 'searchset',
      entry,
      link: [{ relation: 'next', url: `/practice/PractitionerRole?page=${n + 1}` }],
    }),
  );
}

/** A hostile practice system (A2 pages without end, ~200 kB each) and a config folder for it. */
async function hostile(limits?: Record<string, number>) {
  const s = await stubServer((req, res, { n }) => {
    if (!req.url!.startsWith('/practice/PractitionerRole')) return void res.writeHead(404).end();
    endlessPage(res, n, 200);
  });
  const dir = tempDir('pdesk-bounds-');
  writeProfiles(dir, [
    {
      name: 'hostile',
      namespaces: { portal: 'portal.example', practice: 'practice.example' },
      practice: { baseUrl: `${s.url}/practice` },
      portal: { baseUrl: `${s.url}/portal` },
      ...(limits ? { limits } : {}),
    },
  ]);
  return { s, dir };
}

describe('defaults', () => {
  it('no real list reaches them: 64 MB an answer, 256 MB and 10,000 pages a command', () => {
    const profile = validateProfile(
      { name: 'p', namespaces: { portal: 'a', practice: 'b' }, practice: { baseUrl: 'http://x' }, portal: { baseUrl: 'http://x' } },
      'test',
    );
    expect(DEFAULT_LIMITS).toEqual({ responseMB: 64, readMB: 256, pages: 10_000 });
    expect(responseBytes(profile)).toBe(64 * 1024 * 1024);
    const b = ReadBudget.of(profile);
    expect([b.maxBytes, b.maxPages]).toEqual([256 * 1024 * 1024, 10_000]);
    expect(responseBytes({ limits: { responseMB: 0.5 } })).toBe(512 * 1024);
  });

  it('a bound is only reported when a next page is linked: a list that fits is whole', () => {
    const b = new ReadBudget(1000, 2);
    b.count(5000);
    expect(b.pages).toBe(1);
    expect(() => b.next('3 resources read on 1 page')).toThrow(IncompleteListError);
  });

  it('profile values are checked: positive numbers, pages whole', async () => {
    for (const limits of [{ readMB: 0 }, { pages: 1.5 }, { responseMB: -1 }, { other: 1 }])
      expect(() =>
        validateProfile(
          {
            name: 'p',
            namespaces: { portal: 'a', practice: 'b' },
            practice: { baseUrl: 'http://x' },
            portal: { baseUrl: 'http://x' },
            limits,
          },
          'test',
        ),
      ).toThrow(/limits/);
  });
});

describe('a server that serves large pages with fresh next links forever', () => {
  it('practitioners list --limit 0 exits 6 naming limits.readMB, after a bounded number of pages', async () => {
    const { s, dir } = await hostile({ readMB: 1 });
    const r = await run(['practitioners', 'list', '--limit', '0', '--json'], { configDir: dir });
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^pdesk: The list is incomplete: the server still links a next page after \d pages \([\d.]+ MB\), and pdesk reads at most 1 MB \(limits\.readMB\)\.$/,
    );
    expect(lines[1]).toMatch(/^ {2}\d+ resources read on \d pages; nothing more was asked for\.$/);
    expect(lines[2]).toBe(
      '  Narrow the search or read fewer resources; raise limits.readMB in the profile if lists this long are expected.',
    );
    // ~200 kB a page: the sixth passes 1 MB.
    expect(s.received.length).toBeGreaterThanOrEqual(5);
    expect(s.received.length).toBeLessThanOrEqual(6);
  });

  it('limits.pages stops it too, naming that bound', async () => {
    const { s, dir } = await hostile({ pages: 3 });
    const r = await run(['practitioners', 'list', '--limit', '0', '--json'], { configDir: dir });
    expect(r.code).toBe(6);
    expect(r.stderr.split('\n')[0]).toMatch(/and pdesk reads at most 3 pages \(limits\.pages\)\.$/);
    expect(s.received).toHaveLength(3);
  });

  it('check --only A2-roles reports the cut as an error and exits 7 with its report', async () => {
    const { s, dir } = await hostile({ readMB: 1 });
    const r = await run(['check', '--only', 'A2-roles', '--json'], { configDir: dir });
    expect(r.code).toBe(7);
    const report = r.json() as { results: Array<{ id: string; result: string; messages: Array<{ type: string; text: string }> }> };
    const a2 = report.results.find((x) => x.id === 'A2-roles')!;
    expect(a2.result).not.toBe('pass');
    expect(a2.messages.filter((m) => m.type === 'error').map((m) => m.text)).toEqual([
      expect.stringMatching(/The list is incomplete: .* pdesk reads at most 1 MB \(limits\.readMB\)\./),
    ]);
    expect(s.received.length).toBeLessThanOrEqual(6);
  });

  it('one answer over limits.responseMB is reported as too large, naming the bound and the setting (not "Cannot reach")', async () => {
    const { dir } = await hostile({ responseMB: 0.1 });
    const r = await run(['practitioners', 'list', '--json'], { configDir: dir });
    expect(r.code).toBe(6);
    expect(r.stderr.split('\n').slice(0, 3)).toEqual([
      expect.stringMatching(
        /^pdesk: The answer from http:\/\/127\.0\.0\.1:\d+ is larger than 0\.1 MB, the most pdesk reads in one answer \(limits\.responseMB\)\.$/,
      ),
      expect.stringMatching(/^ {2}request: GET http:\/\/127\.0\.0\.1:\d+\/practice\/PractitionerRole$/),
      '  If answers this large are expected, raise limits.responseMB in the profile.',
    ]);
    expect(r.stderr).not.toContain('Cannot reach');
  });
});
