/**
 * `pdesk profile …` run in-process (test/helpers/run.ts): import (the example profiles, validation, file mode),
 * list, show (secrets redacted), use, remove, add (by flags, and interactively on a terminal), and the profile
 * errors (exit 3).
 */
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Profile } from '../../../src/core/profile/schema.js';
import { sandboxProfile } from '../../../src/sandbox/profile.js';
import { run as runPdesk, tempDir } from '../../helpers/run.js';

const EXAMPLES = fileURLToPath(new URL('../../../profiles/', import.meta.url));
const example = (name: string) => join(EXAMPLES, `${name}.json`);
const dirs: string[] = [];
function freshDir(): string {
  const d = tempDir('pdesk-profile-');
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const storeFile = (dir: string) => join(dir, 'profiles.json');

describe('the example profiles', () => {
  const dir = freshDir();

  it('each imports successfully; the store is mode 0600; list shows all three', async () => {
    for (const name of ['practice-1.0.0', 'practice-2.0.0', 'sandbox']) {
      const r = await runPdesk(['profile', 'import', example(name), '--json'], { configDir: dir });
      expect(r.code, r.stderr).toBe(0);
      expect(r.json()).toMatchObject({ saved: name, store: storeFile(dir), profile: { name } });
      expect(statSync(storeFile(dir)).mode & 0o777).toBe(0o600);
    }
    const list = await runPdesk(['profile', 'list', '--json'], { configDir: dir });
    expect(list.code, list.stderr).toBe(0);
    expect(list.json()).toEqual([
      {
        name: 'practice-1.0.0',
        default: true,
        environment: 'test',
        practiceUrl: 'https://practice-one.test.example.org/fhir',
        portalUrl: 'https://portal.test.example.org/fhir',
        appointmentApi: '1.0.0',
      },
      {
        name: 'practice-2.0.0',
        default: false,
        environment: 'production',
        practiceUrl: 'https://practice-two.example.org/fhir',
        portalUrl: 'https://portal.example.org/fhir',
        appointmentApi: '2.0.0',
      },
      {
        name: 'sandbox',
        default: false,
        environment: 'sandbox',
        practiceUrl: 'http://127.0.0.1:4010/practice',
        portalUrl: 'http://127.0.0.1:4010/portal',
        appointmentApi: '2.0.0',
      },
    ]);
  });

  it('list as a table: NAME, DEFAULT marker, ENVIRONMENT, PRACTICE URL, API', async () => {
    const r = await runPdesk(['profile', 'list', '--output', 'table'], { configDir: dir });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+DEFAULT\s+ENVIRONMENT\s+PRACTICE URL\s+API$/);
    expect(lines[1]).toMatch(/^practice-1\.0\.0\s+\*\s+test\s+https:\/\/practice-one\.test\.example\.org\/fhir\s+1\.0\.0$/);
    expect(lines[2]).toMatch(/^practice-2\.0\.0\s+production\s+/);
  });

  it('they say what the task says: 1.0.0 with approval flow and basic auth; 2.0.0 with per-API URLs, bearer from env, a route override', () => {
    const p1 = Profile.parse(JSON.parse(readFileSync(example('practice-1.0.0'), 'utf8')));
    expect(p1).toMatchObject({ appointmentApi: '1.0.0', approvalFlow: true, environment: 'test' });
    expect(p1.practice.auth).toMatchObject({ type: 'basic', passwordEnv: expect.any(String) });
    const p2 = Profile.parse(JSON.parse(readFileSync(example('practice-2.0.0'), 'utf8')));
    expect(p2).toMatchObject({ appointmentApi: '2.0.0', environment: 'production' });
    expect(p2.practice.auth).toMatchObject({ type: 'bearer', tokenEnv: expect.any(String) });
    for (const api of ['appointment', 'chat', 'medication'] as const) expect(p2.practice[api]?.baseUrl).toMatch(/^https:\/\//);
    expect(Object.keys(p2.routes ?? {})).not.toHaveLength(0);
  });

  it('sandbox.json is the profile the sandbox prints for its default port', async () => {
    const { DEFAULT_SANDBOX_PORT } = await import('../../../src/cli/commands/sandbox/defaults.js');
    const file = Profile.parse(JSON.parse(readFileSync(example('sandbox'), 'utf8')));
    expect(file).toEqual(Profile.parse(sandboxProfile(`http://127.0.0.1:${DEFAULT_SANDBOX_PORT}`)));
  });

  it('show redacts nothing that is not secret: env var names and URLs are shown', async () => {
    const r = await runPdesk(['profile', 'show', 'practice-2.0.0', '--json'], { configDir: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({
      name: 'practice-2.0.0',
      default: false,
      practice: {
        auth: { type: 'bearer', tokenEnv: 'PRACTICE_TWO_TOKEN' },
        appointment: { baseUrl: 'https://practice-two.example.org/appointment/2.0.0' },
      },
    });
  });
});

describe('import', () => {
  it('--name renames, --default makes it the default, a second import replaces', async () => {
    const dir = freshDir();
    expect((await runPdesk(['profile', 'import', example('sandbox')], { configDir: dir })).code).toBe(0);
    const r = await runPdesk(['profile', 'import', example('practice-2.0.0'), '--name', 'prod', '--default', '--json'], { configDir: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ saved: 'prod', default: true, profile: { name: 'prod', environment: 'production' } });
    const again = await runPdesk(['profile', 'import', example('practice-1.0.0'), '--name', 'prod', '--json'], { configDir: dir });
    expect(again.json()).toMatchObject({ saved: 'prod', default: true, profile: { appointmentApi: '1.0.0' } });
    const list = (await runPdesk(['profile', 'list', '--json'], { configDir: dir })).json();
    expect(list.map((p: { name: string; default: boolean }) => [p.name, p.default])).toEqual([
      ['sandbox', false],
      ['prod', true],
    ]);
  });

  it('an unknown key exits 3 naming the key and saves nothing', async () => {
    const dir = freshDir();
    const file = join(dir, 'typo.json');
    const good = JSON.parse(readFileSync(example('sandbox'), 'utf8'));
    const { practice, ...rest } = good;
    writeFileSync(file, JSON.stringify({ ...rest, praktice: practice }));
    const r = await runPdesk(['profile', 'import', file], { configDir: dir });
    expect(r.code).toBe(3);
    expect(r.stderr.split('\n')[0]).toBe(`pdesk: Unknown key "praktice" in ${file}: did you mean "practice"?`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect((await runPdesk(['profile', 'list', '--json'], { configDir: dir })).json()).toEqual([]);
  });

  it('a nested unknown key names where it stands', async () => {
    const dir = freshDir();
    const file = join(dir, 'nested.json');
    const good = JSON.parse(readFileSync(example('practice-2.0.0'), 'utf8'));
    good.practice.auth.tokenEnvv = 'X';
    writeFileSync(file, JSON.stringify(good));
    const r = await runPdesk(['profile', 'import', file], { configDir: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`Unknown key "tokenEnvv" in practice.auth in ${file}: did you mean "tokenEnv"?`);
  });

  it('a mistyped key is matched against the keys allowed where it stands; another word gets no guess', async () => {
    const dir = freshDir();
    const file = join(dir, 'typo.json');
    const good = JSON.parse(readFileSync(example('practice-2.0.0'), 'utf8'));
    const cases: Array<[unknown, string]> = [
      [{ ...good, practice: { ...good.practice, tsl: { caFile: 'ca.pem' } } }, `"tsl" in practice in ${file}: did you mean "tls"?`],
      [
        { ...good, practice: { ...good.practice, tls: { cafile: 'ca.pem' } } },
        `"cafile" in practice.tls in ${file}: did you mean "caFile"?`,
      ],
      [{ ...good, timeouts: { requestMS: 5000 } }, `"requestMS" in timeouts in ${file}: did you mean "requestMs"?`],
      // basic auth's keys, not bearer's: the discriminator chooses the option.
      [
        { ...good, portal: { ...good.portal, auth: { type: 'basic', username: 'u', passwrd: 'p' } } },
        `"passwrd" in portal.auth in ${file}: did you mean "password"?`,
      ],
      [{ ...good, colour: 'blue' }, `"colour" in ${file}.`],
    ];
    for (const [profile, message] of cases) {
      writeFileSync(file, JSON.stringify(profile));
      const r = await runPdesk(['profile', 'import', file], { configDir: dir });
      expect(r.code, message).toBe(3);
      expect(r.stderr).toBe(`pdesk: Unknown key ${message}\n`);
    }
  });

  it('an invalid value exits 3 naming the JSON path; not JSON exits 3; a missing file exits 2', async () => {
    const dir = freshDir();
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...JSON.parse(readFileSync(example('sandbox'), 'utf8')), appointmentApi: '3.0.0' }));
    const r1 = await runPdesk(['profile', 'import', bad], { configDir: dir });
    expect(r1.code).toBe(3);
    expect(r1.stderr).toContain('$.appointmentApi');
    writeFileSync(bad, '{"name": "x",');
    const r2 = await runPdesk(['profile', 'import', bad], { configDir: dir });
    expect(r2.code).toBe(3);
    expect(r2.stderr).toContain('is not valid JSON');
    const r3 = await runPdesk(['profile', 'import', join(dir, 'nope.json')], { configDir: dir });
    expect(r3.code).toBe(2);
    expect(r3.stderr).toContain('nope.json');
  });

  it('reads standard input with -', async () => {
    const dir = freshDir();
    const r = await runPdesk(['profile', 'import', '-', '--json'], { configDir: dir, input: readFileSync(example('sandbox'), 'utf8') });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().saved).toBe('sandbox');
  });
});

describe('secrets', () => {
  const TOKEN = 'stored-T0KEN-9f8e7d6c';
  const PASSWORD = 'stored-PASSW0RD-1a2b3c';
  const API_KEY = 'api-K3Y-5e6f7a8b';
  const dir = freshDir();
  const file = join(dir, 'secret.json');
  writeFileSync(
    file,
    JSON.stringify({
      name: 'secret',
      namespaces: { portal: 'p', practice: 'q' },
      practice: { baseUrl: 'https://practice.test', auth: { type: 'bearer', token: TOKEN }, headers: { 'X-Api-Key': API_KEY } },
      portal: { baseUrl: 'https://portal.test', auth: { type: 'basic', username: 'svc', password: PASSWORD } },
    }),
  );
  const leaks = (text: string) => [TOKEN, PASSWORD, API_KEY].filter((s) => text.includes(s));

  it('import, show (JSON and table) and list never print a stored token, password or key header', async () => {
    const imp = await runPdesk(['profile', 'import', file, '--json'], { configDir: dir });
    expect(imp.code, imp.stderr).toBe(0);
    expect(leaks(imp.stdout + imp.stderr)).toEqual([]);
    expect(imp.json().profile.practice.auth).toEqual({ type: 'bearer', token: '***' });

    const show = await runPdesk(['profile', 'show', 'secret', '--json'], { configDir: dir });
    expect(leaks(show.stdout + show.stderr)).toEqual([]);
    expect(show.json()).toMatchObject({
      practice: { auth: { type: 'bearer', token: '***' }, headers: { 'X-Api-Key': '***' } },
      portal: { auth: { type: 'basic', username: 'svc', password: '***' } },
    });

    const table = await runPdesk(['profile', 'show', '--output', 'table'], { configDir: dir });
    expect(table.code).toBe(0);
    expect(leaks(table.stdout + table.stderr)).toEqual([]);
    expect(table.stdout).toMatch(/^practice\.auth\.token\s+\*\*\*$/m);
    expect(table.stdout).toMatch(/^portal\.auth\.password\s+\*\*\*$/m);
    expect(table.stdout).toMatch(/^portal\.auth\.username\s+svc$/m);

    const list = await runPdesk(['profile', 'list', '--output', 'table'], { configDir: dir });
    expect(leaks(list.stdout + list.stderr)).toEqual([]);
  });

  it('the stored secret is only in the 0600 store file', () => {
    expect(readFileSync(storeFile(dir), 'utf8')).toContain(TOKEN);
    expect(statSync(storeFile(dir)).mode & 0o777).toBe(0o600);
  });
});

describe('show, use, remove', () => {
  it('show picks the named profile, else --profile, else PDESK_PROFILE, else the default', async () => {
    const dir = freshDir();
    await runPdesk(['profile', 'import', example('sandbox')], { configDir: dir });
    await runPdesk(['profile', 'import', example('practice-1.0.0')], { configDir: dir });
    const name = async (args: string[], env?: Record<string, string>) =>
      (await runPdesk([...args, '--json'], { configDir: dir, env })).json().name;
    expect(await name(['profile', 'show'])).toBe('sandbox');
    expect(await name(['profile', 'show', 'practice-1.0.0'])).toBe('practice-1.0.0');
    expect(await name(['--profile', 'practice-1.0.0', 'profile', 'show'])).toBe('practice-1.0.0');
    expect(await name(['profile', 'show'], { PDESK_PROFILE: 'practice-1.0.0' })).toBe('practice-1.0.0');
  });

  it('use moves the default; remove deletes and clears the default it held', async () => {
    const dir = freshDir();
    await runPdesk(['profile', 'import', example('sandbox')], { configDir: dir });
    await runPdesk(['profile', 'import', example('practice-2.0.0')], { configDir: dir });
    const use = await runPdesk(['profile', 'use', 'practice-2.0.0', '--json'], { configDir: dir });
    expect(use.code, use.stderr).toBe(0);
    expect(use.json()).toEqual({ ok: true, default: 'practice-2.0.0' });
    expect((await runPdesk(['profile', 'show', '--json'], { configDir: dir })).json().name).toBe('practice-2.0.0');

    const rm = await runPdesk(['profile', 'remove', 'practice-2.0.0', '--output', 'table'], { configDir: dir });
    expect(rm.code, rm.stderr).toBe(0);
    expect(rm.stdout).toContain('Removed profile "practice-2.0.0".');
    expect(rm.stdout).toContain('There is no default profile now');
    const list = (await runPdesk(['profile', 'list', '--json'], { configDir: dir })).json();
    expect(list).toEqual([expect.objectContaining({ name: 'sandbox', default: false })]);
    const show = await runPdesk(['profile', 'show'], { configDir: dir });
    expect(show.code).toBe(3);
    expect(show.stderr).toContain('No profile is selected and there is no default profile.');
    expect(show.stderr).toContain('Known profiles: sandbox.');
  });

  it('--dry-run on import, add, use and remove exits 2 naming it and leaves the store as it was', async () => {
    const dir = freshDir();
    await runPdesk(['profile', 'import', example('sandbox')], { configDir: dir });
    await runPdesk(['profile', 'import', example('practice-2.0.0')], { configDir: dir });
    const before = readFileSync(storeFile(dir), 'utf8');
    const add = [
      '--name',
      'x',
      '--practice-url',
      'http://h/p',
      '--portal-url',
      'http://h/q',
      '--portal-namespace',
      'a',
      '--practice-namespace',
      'b',
    ];
    for (const [verb, ...args] of [
      ['import', example('practice-1.0.0')],
      ['add', ...add],
      ['use', 'practice-2.0.0'],
      ['remove', 'sandbox'],
    ] as string[][]) {
      const r = await runPdesk(['profile', verb!, ...args, '--dry-run'], { configDir: dir });
      expect(r.code, verb).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(
        `pdesk: --dry-run does not apply to profile ${verb}, which sends no request but changes the profile store; nothing was changed.`,
      );
      expect(r.stdout).toBe('');
    }
    expect(readFileSync(storeFile(dir), 'utf8')).toBe(before);
  });

  it('an unknown name exits 3 with the known names (show, use, remove, --profile on a command)', async () => {
    const dir = freshDir();
    await runPdesk(['profile', 'import', example('sandbox')], { configDir: dir });
    await runPdesk(['profile', 'import', example('practice-1.0.0')], { configDir: dir });
    for (const args of [
      ['profile', 'show', 'nope'],
      ['profile', 'use', 'nope'],
      ['profile', 'remove', 'nope'],
      ['--profile', 'nope', 'api', 'GET', '/Slot'],
      ['appointment-types', 'list', '--service-category', 'gp'],
    ]) {
      const r = await runPdesk(args, { configDir: dir, env: args[0] === 'appointment-types' ? { PDESK_PROFILE: 'nope' } : {} });
      expect(r.code, args.join(' ')).toBe(3);
      expect(r.stderr.split('\n')).toEqual(['pdesk: There is no profile named "nope".', '  Known profiles: sandbox, practice-1.0.0.', '']);
    }
    // A slip of the name gets the name it meant, wherever a profile is named.
    for (const args of [
      ['profile', 'show', 'sandbx'],
      ['profile', 'use', 'sandbx'],
      ['profile', 'remove', 'sandbx'],
      ['--profile', 'sandbx', 'api', 'GET', '/Slot'],
      ['appointment-types', 'list', '--service-category', 'gp'],
      ['check', '--profiles', 'sandbx'],
    ]) {
      const r = await runPdesk(args, { configDir: dir, env: args[0] === 'appointment-types' ? { PDESK_PROFILE: 'practice-1.0.1' } : {} });
      expect(r.code, args.join(' ')).toBe(3);
      expect(r.stderr.split('\n')[0], args.join(' ')).toMatch(
        /^pdesk: There is no profile named "(sandbx|practice-1\.0\.1)": did you mean "(sandbox|practice-1\.0\.0)"\?$/,
      );
    }
  });

  it('a profile store that is not JSON exits 3 naming the file, not a crash', async () => {
    const dir = freshDir();
    writeFileSync(storeFile(dir), '{"profiles": {', { mode: 0o600 });
    for (const args of [
      ['profile', 'list'],
      ['api', 'GET', '/Slot'],
    ]) {
      const r = await runPdesk(args, { configDir: dir });
      expect(r.code).toBe(3);
      expect(r.stderr.split('\n')[0]).toBe(`pdesk: The profile store ${storeFile(dir)} is not valid JSON.`);
    }
  });

  it('with no profiles at all, a command exits 3 and says how to add one', async () => {
    const dir = freshDir();
    const r = await runPdesk(['api', 'GET', '/Slot'], { configDir: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('No profile is selected and there is no default profile.');
    expect(r.stderr).toContain('pdesk profile import <file>');
    const list = await runPdesk(['profile', 'list', '--output', 'table'], { configDir: dir });
    expect(list.code).toBe(0);
    expect(list.stdout.trim()).toBe('(none)');
  });
});

describe('add', () => {
  const flags = [
    '--name',
    'added',
    '--practice-url',
    'https://practice.test/fhir',
    '--portal-url',
    'https://portal.test/fhir',
    '--portal-namespace',
    'portal.test',
    '--practice-namespace',
    'practice.test',
  ];

  it('by flags: saves a valid profile that commands can use', async () => {
    const dir = freshDir();
    const r = await runPdesk(
      [
        'profile',
        'add',
        ...flags,
        '--appointment-api',
        '1.0.0',
        '--approval-flow',
        '--environment',
        'test',
        '--practice-token-env',
        'PRACTICE_TOKEN',
        '--json',
      ],
      { configDir: dir },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ saved: 'added', default: true });
    const shown = (await runPdesk(['profile', 'show', 'added', '--json'], { configDir: dir })).json();
    expect(shown).toEqual({
      name: 'added',
      environment: 'test',
      appointmentApi: '1.0.0',
      approvalFlow: true,
      namespaces: { portal: 'portal.test', practice: 'practice.test' },
      practice: { baseUrl: 'https://practice.test/fhir', auth: { type: 'bearer', tokenEnv: 'PRACTICE_TOKEN' } },
      portal: { baseUrl: 'https://portal.test/fhir', auth: { type: 'none' } },
      default: true,
    });
    expect(statSync(storeFile(dir)).mode & 0o777).toBe(0o600);
    // The profile is usable: a dry run builds the request from it.
    const dry = await runPdesk(['--dry-run', 'api', 'GET', '/Slot'], { configDir: dir, env: { PRACTICE_TOKEN: 'tok-abcdef-123' } });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json()).toMatchObject({ method: 'GET', url: 'https://practice.test/fhir/Slot', headers: { authorization: 'Bearer ***' } });
  });

  it('a missing flag without a terminal exits 2 naming it, and saves nothing', async () => {
    const dir = freshDir();
    const r = await runPdesk(['profile', 'add', '--name', 'x', '--portal-url', 'https://p.test'], { configDir: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^pdesk: Missing option --practice-url\b.*\.$/);
    expect(r.stderr).toContain('Also missing: --portal-namespace, --practice-namespace.');
    expect(existsStore(dir)).toBe(false);
  });

  it.each([
    [['--practice-url', 'ftp://x'], '--practice-url must be an http:// or https:// URL, not "ftp://x".'],
    [['--appointment-api', '3.0.0'], '--appointment-api must be one of 2.0.0, 1.0.0, not "3.0.0".'],
    [['--name', 'bad name'], '--name must be letters, digits, ".", "_" or "-", not "bad name".'],
    [['--practice-token-env', 'not-a-var'], '--practice-token-env must be the name of an environment variable, not "not-a-var".'],
  ])('bad value %j exits 2 naming the option', async (extra, message) => {
    const dir = freshDir();
    const r = await runPdesk(['profile', 'add', ...flags, ...extra], { configDir: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(`pdesk: ${message}`);
  });

  it('an existing name needs --force', async () => {
    const dir = freshDir();
    expect((await runPdesk(['profile', 'add', ...flags], { configDir: dir })).code).toBe(0);
    const again = await runPdesk(['profile', 'add', ...flags, '--environment', 'x'], { configDir: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('A profile named "added" exists already; use --force to replace it.');
    const forced = await runPdesk(['profile', 'add', ...flags, '--environment', 'x', '--force'], { configDir: dir });
    expect(forced.code).toBe(0);
    expect((await runPdesk(['profile', 'show', 'added', '--json'], { configDir: dir })).json().environment).toBe('x');
  });

  // A terminal on standard input (the IO says so): profile add asks on stderr for what is missing. A real
  // pseudo-terminal runs the same in test/process/profile-prompt.test.ts.
  it('on a terminal it asks for what is missing, re-asking after a bad answer', async () => {
    const dir = freshDir();
    const answers = [
      'https://practice.test/fhir',
      'notaurl',
      'https://portal.test/fhir',
      'portal.test',
      'practice.test',
      'test',
      '',
      'y',
      '',
    ];
    const out = await runPdesk(['profile', 'add', '--name', 'tty'], {
      configDir: dir,
      tty: { stdin: true },
      input: answers.map((a) => `${a}\n`).join(''),
    });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain('Practice system base URL');
    expect(out.stderr).toContain('--portal-url must be an http:// or https:// URL, not "notaurl".');
    expect(out.json()).toMatchObject({ saved: 'tty', default: true, store: join(dir, 'profiles.json') });
    const shown = (await runPdesk(['profile', 'show', 'tty', '--json'], { configDir: dir })).json();
    expect(shown).toMatchObject({
      name: 'tty',
      environment: 'test',
      appointmentApi: '2.0.0',
      approvalFlow: true,
      namespaces: { portal: 'portal.test', practice: 'practice.test' },
      practice: { baseUrl: 'https://practice.test/fhir', auth: { type: 'none' } },
      portal: { baseUrl: 'https://portal.test/fhir' },
    });
  });

  it('on a terminal, end of input cancels with exit 2 and saves nothing', async () => {
    const dir = freshDir();
    const out = await runPdesk(['profile', 'add'], { configDir: dir, tty: { stdin: true }, input: 'only-a-name\n' });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('profile add was cancelled before --practice-url was given.');
    expect(existsStore(dir)).toBe(false);
  });

  it('three bad answers to one question end with exit 2 naming the option, and save nothing', async () => {
    const dir = freshDir();
    const out = await runPdesk(['profile', 'add', '--name', 'x'], { configDir: dir, tty: { stdin: true }, input: 'a\nb\nc\n' });
    expect(out.code).toBe(2);
    expect(out.stderr.match(/--practice-url must be an http:\/\/ or https:\/\/ URL/g)).toHaveLength(3);
    expect(out.stderr).toContain('pdesk: No valid value for --practice-url was given.');
    expect(existsStore(dir)).toBe(false);
  });
});

function existsStore(dir: string): boolean {
  try {
    return (
      JSON.parse(readFileSync(storeFile(dir), 'utf8')).profiles &&
      Object.keys(JSON.parse(readFileSync(storeFile(dir), 'utf8')).profiles).length > 0
    );
  } catch {
    return false;
  }
}
