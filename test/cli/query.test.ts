/**
 * The global --query (src/cli/query.ts, applied in Context's emit functions): compiling names the position of a
 * syntax error and of an unknown function; a bad expression exits 2 before anything is sent; the expression is
 * applied to the JSON output of list, single-resource, write, local-store, check and doctor commands, with
 * ndjson printing each element of an array result on a line; `pdesk api` keeps --query for its query parameters.
 * Commands run in-process against the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileQuery } from '../../src/cli/query.js';
import { UsageError } from '../../src/core/errors.js';
import { messageRecord, openThreadStore } from '../../src/core/threads/index.js';
import { chatMessage } from '../helpers/chat.js';
import { type Env, withSandbox } from '../helpers/run.js';

const GP = 'urn:pdesk:service-category|gp';
const DAY = 86_400_000;
const day = (n = 0) => new Date(Date.now() + n * DAY).toISOString().slice(0, 10);
const TZ = { env: { TZ: 'UTC' } };

/** The UsageError compiling `expression` throws. */
function compileErrorOf(expression: string): UsageError {
  try {
    compileQuery(expression);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return e as UsageError;
  }
  throw new Error(`"${expression}" compiled`);
}

describe('compileQuery', () => {
  it.each([
    ['foo[?', 'the expression is incomplete at position 6'],
    ["[?status=='free'", 'the expression is incomplete at position 17'],
    ['foo bar', 'unexpected "bar" at position 5'],
    [')', 'unexpected ")" at position 1'],
    ['a[?x]]', 'unexpected "]" at position 6'],
    ['x | y z | w', 'unexpected "z" at position 7'],
    ['foo[0 1]', 'unexpected "1" at position 7'],
    ['a ^ b', 'unexpected character "^" at position 3'],
    ['a == `{x', 'a literal (`…`) that is not valid JSON or not closed at position 6'],
    ['"abc', 'a quoted name ("…") that is not closed at position 1'],
    ['[].nofn(id)', 'unknown function nofn() at position 4'],
  ])('%s: "%s", with the expression and a caret under the position', (expression, what) => {
    const e = compileErrorOf(expression);
    expect(e.exitCode).toBe(2);
    expect(e.message).toBe(`--query: ${what}: ${JSON.stringify(expression)}`);
    const position = Number(/position (\d+)/.exec(what)![1]);
    expect(e.details[0]).toBe(expression);
    expect(e.details[1]).toBe(`${' '.repeat(position - 1)}^`);
  });

  it('an empty expression says so; a tab or newline in it keeps the caret aligned', () => {
    expect(compileErrorOf('  ').message).toBe('--query: the expression is empty.');
    const e = compileErrorOf('a\t| b\n ^');
    expect(e.message).toMatch(/unexpected character "\^" at position 8/);
    expect(e.details.slice(0, 2)).toEqual(['a | b  ^', '       ^']);
  });

  it('applies to plain JSON: filters, projections, functions, the community edition’s let and $', () => {
    const rows = [
      { id: 's1', status: 'free', n: 2 },
      { id: 's2', status: 'busy', n: 3 },
      { id: 's3', status: 'free', n: 5 },
    ];
    expect(compileQuery("[?status=='free'].id").apply(rows)).toEqual(['s1', 's3']);
    expect(compileQuery('sum([].n)').apply(rows)).toBe(10);
    expect(compileQuery('let $s = `"busy"` in [?status == $s].id | [0]').apply(rows)).toBe('s2');
    expect(compileQuery('[0].{id: id, total: $[2].n}').apply(rows)).toEqual({ id: 's1', total: 5 });
    // It sees what would be printed: a Date as its JSON string, an undefined field as absent.
    expect(compileQuery('at').apply({ at: new Date('2026-01-02T03:04:05Z') })).toBe('2026-01-02T03:04:05.000Z');
    expect(compileQuery('gone').apply({ gone: undefined })).toBeNull();
    // A property of Object.prototype is no field of the output.
    expect(compileQuery('constructor').apply({})).toBeNull();
  });

  it('an error while applying it is a usage error that says the command completed', () => {
    const q = compileQuery('abs(id)');
    expect(() => q.apply({ id: 'x' })).toThrow(UsageError);
    try {
      q.apply({ id: 'x' });
    } catch (e) {
      expect((e as UsageError).message).toMatch(/^--query: the expression cannot be applied to the output: Invalid type: abs\(\)/);
      expect((e as UsageError).details).toEqual(['expression: abs(id)', 'The command itself completed; its output was not printed.']);
    }
  });
});

describe('--query on commands, against the sandbox', () => {
  let env: Env;
  const run = (args: string[], o: Parameters<Env['run']>[1] = {}) => env.run(args, { ...TZ, ...o });
  const received = () => env.sandbox.received;
  const clear = () => {
    env.sandbox.received.length = 0;
  };
  const SLOTS = ['slots', 'list', '--service-category', GP, '--from', day(1), '--to', day(1)];

  beforeAll(async () => {
    env = await withSandbox();
  });
  afterAll(async () => {
    await env?.close();
  });

  it('a list command: the expression applies to the array; it implies JSON even on a terminal', async () => {
    const all = await run([...SLOTS, '--json']);
    expect(all.code, all.stderr).toBe(0);
    const free = all
      .json()
      .filter((s: any) => s.status === 'free')
      .map((s: any) => s.id);
    expect(free.length).toBeGreaterThan(3);
    const r = await run([...SLOTS, '--query', "[?status=='free'].id"], { tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toEqual(free);
    expect(r.stdout).toBe(`${JSON.stringify(free, null, 2)}\n`);
    // Before the command, and as --query=…, it is the same option.
    const before = await run(['--query=length(@)', ...SLOTS]);
    expect(before.json()).toBe(all.json().length);
  });

  it('--output ndjson: the whole value first, then each element of an array result on its own line', async () => {
    const r = await run(['appointments', 'list', '--output', 'ndjson', '--query', '[].{id: id, status: status}']);
    expect(r.code, r.stderr).toBe(0);
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { id: 'appt-1', status: 'booked' },
      { id: 'appt-2', status: 'proposed' },
      { id: 'appt-3', status: 'cancelled' },
    ]);
    const one = await run(['appointments', 'list', '--output', 'ndjson', '--query', '[0].id']);
    expect(one.stdout).toBe('"appt-1"\n');
    const none = await run(['appointments', 'list', '--output', 'ndjson', '--query', "[?status=='nope']"]);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('');
    const nothing = await run(['appointments', 'list', '--json', '--query', "[?status=='nope']"]);
    expect(nothing.stdout).toBe('[]\n');
  });

  it('a single resource, a write result and the dry-run request (which it leaves alone)', async () => {
    const show = await run(['medications', 'show', 'mr-1', '--query', '{id: id, status: status}']);
    expect(show.code, show.stderr).toBe(0);
    expect(show.json()).toEqual({ id: 'mr-1', status: 'active' });

    const slot = (await run([...SLOTS, '--query', "[?status=='free'] | [0]"])).json();
    const book = await run(
      ['appointments', 'book', '--patient', 'pat-1', '--comment', 'query test', '--slot-json', '-', '--query', '[status, start]'],
      { input: JSON.stringify(slot) },
    );
    expect(book.code, book.stderr).toBe(0);
    expect(book.json()).toEqual(['booked', slot.start]);

    clear();
    const dry = await run([
      'appointments',
      'cancel',
      'appt-1',
      '--actor',
      'Patient/pat-1',
      '--comment',
      'x',
      '--dry-run',
      '--query',
      'status',
    ]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json()).toMatchObject({ op: 'A7', method: 'POST', url: expect.stringMatching(/\/AppointmentResponse$/) });
    expect(received()).toHaveLength(0);
  });

  it('check --json and doctor: the report', async () => {
    const check = await run(['check', '--query', 'summary.fail']);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toBe('0\n');
    const doctor = await run(['doctor', '--json', '--query', "results[?result=='pass'].id | contains(@, 'practice-roundtrip')"]);
    expect(doctor.code, doctor.stderr).toBe(0);
    expect(doctor.json()).toBe(true);
  });

  it('the local thread store (chat threads, chat show): output stays escaped for a terminal', async () => {
    const store = openThreadStore(env.configDir, env.profile.name);
    const evil = 'hello \u009b31m!';
    await store.append([
      messageRecord('C3', 'received', chatMessage('q-m1', 'enc-q1', evil, 'PractitionerRole/1001', 'Patient/pat-1')),
      messageRecord('C1', 'sent', chatMessage('q-m2', 'enc-q2', 'second', 'Patient/pat-1', 'PractitionerRole/1001')),
    ]);
    await store.close();
    const threads = await run(['chat', 'threads', '--query', 'sort([].thread)']);
    expect(threads.json()).toEqual(['enc-q1', 'enc-q2']);
    const show = await run(['chat', 'show', 'enc-q1', '--query', '[].text']);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).not.toContain('\u009b');
    expect(show.stdout).toContain('\\u009b');
    expect(show.json()).toEqual([evil]);
  });

  it('a bad expression exits 2 naming the position, and nothing is sent (a write included)', async () => {
    clear();
    const r = await run([...SLOTS, '--query', "[?status=='free'"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toEqual([
      `pdesk: --query: the expression is incomplete at position 17: "[?status=='free'"`,
      "  [?status=='free'",
      '                  ^',
      '  (Syntax error: expected Rbracket, got: EOF)',
      '',
    ]);
    const write = await run(['appointments', 'cancel', 'appt-2', '--actor', 'Patient/pat-1', '--comment', 'x', '--query', 'nofn(@)']);
    expect(write.code).toBe(2);
    expect(write.stderr).toMatch(/^pdesk: --query: unknown function nofn\(\) at position 1: "nofn\(@\)"\n/);
    expect(received()).toHaveLength(0);
  });

  it('with --output table, or given twice, it is a usage error and nothing is sent', async () => {
    clear();
    const table = await run([...SLOTS, '--output', 'table', '--query', '[].id']);
    expect(table.code).toBe(2);
    expect(table.stderr.split('\n')[0]).toBe('pdesk: --query filters JSON output: it cannot be used with --output table.');
    const twice = await run([...SLOTS, '--query', '[].id', '--query', '[0]']);
    expect(twice.code).toBe(2);
    expect(twice.stderr.split('\n')[0]).toBe('pdesk: --query was given 2 times; give one expression.');
    expect(received()).toHaveLength(0);
  });

  it('an expression that fails on the output exits 2 after the command ran', async () => {
    const r = await run(['appointments', 'list', '--query', 'abs([0].id)']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^pdesk: --query: the expression cannot be applied to the output: Invalid type: abs\(\)/);
  });

  it('pdesk api takes its query parameters as --param key=value, and --query applies to its answer as everywhere', async () => {
    clear();
    const r = await run(['--query', 'resourceType', 'api', 'GET', '/Slot', '--param', 'status=free', '--param', '_count=2']);
    expect(r.code, r.stderr).toBe(0);
    expect(received()).toHaveLength(1);
    expect(received()[0]!.query).toBe('status=free&_count=2');
    expect(r.json()).toBe('Bundle');
  });
});
