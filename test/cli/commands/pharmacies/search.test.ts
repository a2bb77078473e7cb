/**
 * `pdesk pharmacies search` (M4) run in-process against the sandbox: one or more identifiers (comma list and
 * repeated option), the `identifier=` query encoding the server received, table/JSON/NDJSON output, and
 * missing or malformed identifiers refused with exit 2 before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSandbox, type Env } from '../../../helpers/run.js';

const SYS = 'urn:pdesk:pharmacy-id';
let env: Env;
beforeAll(async () => {
  env = await withSandbox();
});
afterAll(async () => {
  await env?.close();
});

async function search(args: string[]) {
  const from = env.sandbox.received.length;
  const r = await env.run(['pharmacies', 'search', ...args]);
  return { r, received: env.sandbox.received.slice(from) };
}

/** The raw query string of a received request, whatever form `received.query` takes. */
function rawQuery(x: { path: string; query: unknown; url?: string }): string {
  if (typeof x.url === 'string' && x.url.includes('?')) return x.url.slice(x.url.indexOf('?') + 1);
  if (typeof x.query === 'string') return x.query.replace(/^\?/, '');
  throw new Error(`cannot find the raw query in ${JSON.stringify(x)}`);
}

describe('pharmacies search (M4)', () => {
  it('one identifier: --json prints the Organizations as received', async () => {
    const { r, received } = await search(['--identifier', `${SYS}|PH002`, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const orgs = r.json<any[]>();
    expect(orgs).toEqual([JSON.parse(JSON.stringify(env.sandbox.state.organizations.get('ph-2')))]);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'GET', path: '/practice/Organization' });
  });

  it('two identifiers as a comma list: one identifier= parameter, | as %7C and , as %2C', async () => {
    const { r, received } = await search(['--identifier', `${SYS}|PH001,${SYS}|PH003`, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<any[]>().map((o) => o.id)).toEqual(['ph-1', 'ph-3']);
    expect(received).toHaveLength(1);
    expect(rawQuery(received[0] as never)).toBe('identifier=urn%3Apdesk%3Apharmacy-id%7CPH001%2Curn%3Apdesk%3Apharmacy-id%7CPH003');
  });

  it('two identifiers as a repeated option: the same single parameter', async () => {
    const { r, received } = await search(['--identifier', `${SYS}|PH003`, '--identifier', `${SYS}|PH002`, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(
      r
        .json<any[]>()
        .map((o) => o.id)
        .sort(),
    ).toEqual(['ph-2', 'ph-3']);
    expect(rawQuery(received[0] as never)).toBe('identifier=urn%3Apdesk%3Apharmacy-id%7CPH003%2Curn%3Apdesk%3Apharmacy-id%7CPH002');
  });

  it('table: ID, NAME, IDENTIFIER, CITY', async () => {
    const { r } = await search(['--identifier', `${SYS}|PH001,${SYS}|PH003`, '--output', 'table']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split(/\s{2,}/));
    expect(lines).toEqual([
      ['ID', 'NAME', 'IDENTIFIER', 'CITY'],
      ['ph-1', 'Apotheek Centrum', `${SYS}|PH001`, 'Utrecht'],
      ['ph-3', 'Service Apotheek Zuid', `${SYS}|PH003`, 'Utrecht'],
    ]);
  });

  it('--output ndjson prints one Organization per line', async () => {
    const { r } = await search(['--identifier', `${SYS}|PH001`, '--identifier', `${SYS}|PH002`, '--output', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).name),
    ).toEqual(['Apotheek Centrum', 'Apotheek Noord']);
  });

  it('no match: [] as JSON, (none) as a table', async () => {
    const a = await search(['--identifier', `${SYS}|PH999`, '--json']);
    expect(a.r.code, a.r.stderr).toBe(0);
    expect(a.r.json()).toEqual([]);
    const b = await search(['--identifier', `${SYS}|PH999`, '--output', 'table']);
    expect(b.r.stdout.trim()).toBe('(none)');
  });

  it.each([
    ['missing', [] as string[], /--identifier is required/],
    ['without system', ['--identifier', 'PH001'], /--identifier must be <system>\|<value>, not "PH001"/],
    ['empty value', ['--identifier', `${SYS}|`], /--identifier must be <system>\|<value>/],
    ['one bad in a list', ['--identifier', `${SYS}|PH001,PH002`], /not "PH002"/],
  ])('%s identifier exits 2 and sends nothing', async (_name, args, message) => {
    const { r, received } = await search(args);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(message);
    expect(r.stdout).toBe('');
    expect(received).toEqual([]);
  });
});
