import { describe, expect, it } from 'vitest';
import type { SystemStatus } from '../../../../src/core/systems/index.js';
import { Profile } from '../../../../src/core/profile/schema.js';
import { sandboxProfile } from '../../../../src/sandbox/profile.js';
import { systemsLayout } from '../../../../src/tui/screens/systems/format.js';

const status = (name: string, environment = 'test'): SystemStatus =>
  ({
    name,
    profile: Profile.parse({ ...sandboxProfile('http://127.0.0.1:9', { name }), environment }),
    probing: false,
    practice: { state: 'ok', status: 200, ms: 12, at: '2026-11-23T10:00:00Z' },
    portal: { state: 'reachable', status: 404, ms: 9, at: '2026-11-23T10:00:00Z' },
    counts: { unread: 2, open: 1, threads: 3, uncertain: 0, failed: 0 },
    lastError: { at: '2026-11-23T10:00:00Z', text: 'portal: connection refused' },
  }) as unknown as SystemStatus;

const row = (width: number, names: string[], name: string) => {
  const l = systemsLayout(width, names);
  return {
    header: l.header,
    text: l
      .cells(status(name), 'x')
      .map((s) => s.text)
      .join(''),
  };
};

describe('systemsLayout', () => {
  it('marks a read-only profile "ro" beside its environment, which gives way to it', () => {
    const ro = (environment: string) => {
      const st = status('look', environment);
      const profile = { ...st.profile!, readOnly: true };
      return systemsLayout(98, ['look'])
        .cells({ ...st, profile }, 'x')
        .map((c) => c.text)
        .join('');
    };
    expect(ro('test')).toMatch(/^ {2}look\s+test ro\s+2\.0\.0/);
    expect(ro('production')).toContain('PRODUC… ro');
    expect(row(98, ['look'], 'look').text).not.toContain(' ro ');
  });

  it('a production environment is shown as such by the rule every face uses (spaces around it included)', () => {
    const env = (environment: string) =>
      systemsLayout(98, ['look'])
        .cells(status('look', environment), 'x')
        .find((c) => c.text.trim().toLowerCase().startsWith(environment.trim().slice(0, 4).toLowerCase()))!;
    expect(env(' Production ')).toMatchObject({ color: 'red', bold: true });
    expect(env('prod')).toMatchObject({ color: 'red', bold: true });
    expect(env('production-like').color).toBeUndefined();
  });

  it('shows every column when there is room, the profile name whole', () => {
    const r = row(100, ['sandbox'], 'sandbox');
    expect(r.header).toEqual(['PROFILE', 'ENV', 'API', 'PRACTICE', 'PORTAL', 'UNRD', 'OPEN', 'UNC', 'LAST ERROR']);
    expect(r.text).toMatch(/^ {2}sandbox\s+test\s+2\.0\.0\s+ok 12 ms\s+reachable \(404\) 9 ms\s+2\s+1\s+0\s+portal: conn/);
    expect(r.text.length).toBeLessThanOrEqual(100);
  });

  it('a long profile name is never cut while the row can hold it: the last error, then the API give way', () => {
    const long = 'north-practice-utrecht';
    let r = row(100, [long], long);
    expect(r.header).not.toContain('LAST ERROR');
    expect(r.header).toContain('API');
    expect(r.text).toMatch(new RegExp(`^ {2}${long}\\s+test\\s+2\\.0\\.0\\s+ok 12 ms`));
    r = row(90, [long], long);
    expect(r.header).not.toContain('API');
    expect(r.text).toMatch(new RegExp(`^ {2}${long}\\s+test\\s+ok 12 ms`));
    // Too narrow for it: cut, marked with …
    r = row(70, [long], long);
    expect(r.text).toMatch(/^ {2}north…/);
    expect(r.text.length).toBeLessThanOrEqual(70);
  });
});
