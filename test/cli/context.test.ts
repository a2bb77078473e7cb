/**
 * The Context every command action gets (src/cli/context.ts), built on an in-memory IO (src/cli/io.ts): output
 * format, colour and width follow the terminal and the environment of the IO, never the test process's; what is
 * printed is sanitised and redacted; standard input is read through the IO.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { Context } from '../../src/cli/context.js';
import { type TestIOOptions, testIO } from '../../src/cli/io.js';
import { collect } from '../../src/cli/options.js';
import { UsageError } from '../../src/core/errors.js';
import { registerSecret } from '../../src/core/redact.js';

/** A Context for `args` (global options) on an IO made of `o`. */
function contextOf(args: string[], o: TestIOOptions = {}, now?: () => Date) {
  const t = testIO(o);
  const program = new Command('pdesk')
    .option('--json')
    .option('--output <format>')
    .option('--limit <n>')
    .option('--no-color')
    .option('--verbose')
    .option('--query <JMESPath>', '', collect)
    .exitOverride();
  program.parse(args, { from: 'user' });
  return { ctx: new Context(program.opts(), { io: t.io, now }), t };
}

describe('Context stdout', () => {
  it("a write's table text is sanitised in one place for every command (chat close, appointments cancel…)", () => {
    const { ctx, t } = contextOf(['--output', 'table']);
    ctx.emitWrite(204, undefined, () => 'Closed chat enc-1\u001b[2J\u001b]0;owned\u0007 \u202eevil.');
    ctx.emitOne('plain \u001b[31mred');
    expect(t.stdout()).toBe('Closed chat enc-1 evil.\nplain red\n');
  });
});

describe('Context stderr', () => {
  it('ctx.err strips control sequences and redacts registered secrets (stderr may carry untrusted text)', () => {
    registerSecret('unit-err-S3CRET-4f2a');
    const { ctx, t } = contextOf([]);
    ctx.err('pdesk listen: could not store POST /portal/\u001b]0;pwned\u0007x\u009b2Jy: token unit-err-S3CRET-4f2a\nsecond line');
    expect(t.stderr()).toBe('pdesk listen: could not store POST /portal/xy: token ***\nsecond line\n');
    expect(t.stdout()).toBe('');
  });

  it('ctx.out redacts but keeps the text otherwise; ctx.log writes only with --verbose', () => {
    registerSecret('unit-out-S3CRET-77');
    const { ctx, t } = contextOf([]);
    ctx.out('{"token": "unit-out-S3CRET-77"}');
    ctx.log('not shown');
    expect(t.stdout()).toBe('{"token": "***"}\n');
    expect(t.stderr()).toBe('');
    const verbose = contextOf(['--verbose']);
    verbose.ctx.log('→ A1 GET http://x');
    expect(verbose.t.stderr()).toBe('→ A1 GET http://x\n');
  });
});

describe('format, colour and width follow the IO', () => {
  it('table on a terminal, JSON when piped; --json and --output win; a bad --output is a usage error', () => {
    expect(contextOf([], { tty: true }).ctx.format).toBe('table');
    expect(contextOf([], { tty: false }).ctx.format).toBe('json');
    expect(contextOf(['--json'], { tty: true }).ctx.format).toBe('json');
    expect(contextOf(['--output', 'ndjson'], { tty: true }).ctx.format).toBe('ndjson');
    expect(() => contextOf(['--output', 'xml']).ctx.format).toThrow(UsageError);
  });

  it('colour only on a terminal, and neither with NO_COLOR nor with --no-color', () => {
    expect(contextOf([], { tty: true }).ctx.color).toBe(true);
    expect(contextOf([], { tty: false }).ctx.color).toBe(false);
    expect(contextOf([], { tty: true, env: { NO_COLOR: '1' } }).ctx.color).toBe(false);
    expect(contextOf(['--no-color'], { tty: true }).ctx.color).toBe(false);
  });

  it("width: the terminal's, else COLUMNS, else 100", () => {
    expect(contextOf([], { tty: true, columns: 63 }).ctx.width).toBe(63);
    expect(contextOf([], { tty: false, columns: 63, env: { COLUMNS: '71' } }).ctx.width).toBe(71);
    expect(contextOf([]).ctx.width).toBe(100);
  });

  it('--limit: 1000 by default, a bad value is a usage error naming it', () => {
    expect(contextOf([]).ctx.limit).toBe(1000);
    expect(contextOf(['--limit', '0']).ctx.limit).toBe(0);
    expect(() => contextOf(['--limit', 'x']).ctx.limit).toThrow('--limit must be a non-negative whole number, not "x".');
  });

  it('now() is the clock the program was given', () => {
    const fixed = new Date(2026, 1, 27, 15, 30);
    expect(contextOf([], {}, () => fixed).ctx.now()).toBe(fixed);
    expect(Math.abs(contextOf([]).ctx.now().getTime() - Date.now())).toBeLessThan(5000);
  });

  it('readJson reads `-` from the IO, and names the option when it is not JSON', () => {
    const { ctx } = contextOf([], { stdin: '{"a": [1]}' });
    expect(ctx.readJson('-', '--body')).toEqual({ a: [1] });
    const bad = contextOf([], { stdin: 'nope' }).ctx;
    expect(() => bad.readJson('-', '--slot-json')).toThrow(/^--slot-json: standard input is not valid JSON/);
  });

  it('the config folder is PDESK_CONFIG_DIR of the IO (trailing slashes dropped)', async () => {
    const { ctx } = contextOf([], { env: { PDESK_CONFIG_DIR: '/tmp/pdesk-ctx-test///' } });
    expect(await ctx.configDir()).toBe('/tmp/pdesk-ctx-test');
    expect((await ctx.store()).path).toBe('/tmp/pdesk-ctx-test/profiles.json');
  });
});

describe('--query in the emit functions', () => {
  it('implies JSON, even on a terminal; --output ndjson and --json stay; --output table is a usage error', () => {
    expect(contextOf(['--query', 'a'], { tty: true }).ctx.format).toBe('json');
    expect(contextOf(['--query', 'a', '--output', 'ndjson'], { tty: true }).ctx.format).toBe('ndjson');
    expect(() => contextOf(['--query', 'a', '--output', 'table']).ctx.format).toThrow(
      '--query filters JSON output: it cannot be used with --output table.',
    );
  });

  it('is compiled by compileQuery (a bad one throws the usage error) and applied by every emit function', async () => {
    const bad = contextOf(['--query', 'a[']).ctx;
    await expect(bad.compileQuery()).rejects.toThrow(/^--query: the expression is incomplete at position 3/);

    const { ctx, t } = contextOf(['--query', '[].id']);
    await ctx.compileQuery();
    ctx.emitList([{ id: 'x' }, { id: 'y' }], []);
    ctx.emitOne([{ id: 'z' }]);
    ctx.emitWrite(201, [{ id: 'w' }]);
    expect(t.stdout()).toBe('[\n  "x",\n  "y"\n]\n[\n  "z"\n]\n[\n  "w"\n]\n');
  });

  it('the result is redacted and escaped as any output is', async () => {
    registerSecret('unit-query-S3CRET-5d');
    const { ctx, t } = contextOf(['--query', 'token']);
    await ctx.compileQuery();
    ctx.emitOne({ token: 'Bearer unit-query-S3CRET-5d \u009b2J', other: 1 });
    expect(t.stdout()).toBe('"Bearer *** \\u009b2J"\n');
  });

  it('emitLine prints one line per value; an expression failing on one is a warning, not the end', async () => {
    const { ctx, t } = contextOf(['--query', 'abs(n)']);
    await ctx.compileQuery();
    ctx.emitLine({ n: -2 });
    ctx.emitLine({ n: 'x' });
    ctx.emitLine({ n: 3 });
    expect(t.stdout()).toBe('2\n3\n');
    expect(t.stderr()).toMatch(/^pdesk: warning: --query: the expression cannot be applied to the output: Invalid type: abs\(\)/);
  });
});
