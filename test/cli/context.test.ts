/**
 * The Context every command action gets (src/cli/context.ts), built on an in-memory IO (src/cli/io.ts): output
 * format, colour and width follow the terminal and the environment of the IO, never the test process's; what is
 * printed is sanitised and redacted; standard input is read through the IO.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { Context } from '../../src/cli/context.js';
import { type TestIOOptions, testIO } from '../../src/cli/io.js';
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
    .exitOverride();
  program.parse(args, { from: 'user' });
  return { ctx: new Context(program, { io: t.io, now }), t };
}

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
