/**
 * `--body <file|->` of every write command (src/cli/body.ts): a complete resource sent as is, which excludes
 * every other option of its command. Every command with a --body (but `pdesk api`, whose --body is a raw
 * request body) refuses it with each other option, naming them all, with exit 2 and nothing sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { testIO } from '../../src/cli/io.js';
import { type Env, withSandbox } from '../helpers/run.js';

let env: Env;
beforeAll(async () => {
  env = await withSandbox();
});
afterAll(async () => {
  await env?.close();
});

/** A value each option accepts on its own (the check is about the combination). */
const VALUE: Record<string, string> = { '--reorder': 'mr-1', '--quantity': '3', '--email': 'a@example.org', '--at': 'today' };
/** Positional arguments of the commands that have them. */
const ARGS: Record<string, string[]> = { 'appointments cancel': ['appt-1'], 'chat mark-read': ['c-1'], 'chat close': ['enc-100'] };
/** What each command's --body is, as the error names it. */
const WHAT: Record<string, string> = {
  'appointments book': 'Appointment',
  'appointments cancel': 'appointment response',
  'chat send': 'Communication',
  'chat reply': 'Communication',
  'chat mark-read': 'read marker',
  'chat close': 'Encounter',
  'medications order': 'MedicationRequest',
  'notifications send': 'notification',
};

const program = buildProgram({ io: testIO().io });
const writeCommands = program.commands
  .filter((group) => group.name() !== 'api')
  .flatMap((group) => group.commands.map((cmd) => ({ name: `${group.name()} ${cmd.name()}`, cmd })))
  .filter(({ cmd }) => cmd.options.some((o) => o.long === '--body'));

describe('--body excludes the other options of its command', () => {
  it('every write command with a --body is covered', () => {
    expect(writeCommands.map((c) => c.name).sort()).toEqual(Object.keys(WHAT).sort());
  });

  it.each(writeCommands.map((c) => [c.name, c.cmd] as const))(
    '%s: each other option with --body exits 2 naming it; nothing sent',
    async (name, cmd) => {
      const others = cmd.options.filter((o) => o.long !== '--body' && !(name === 'notifications send' && o.long === '--csv'));
      if (others.length === 0) {
        // chat close: --body is its only option; the check has nothing to refuse (and must not refuse --body).
        expect(cmd.options.map((o) => o.long)).toEqual(['--body']);
        return;
      }
      const [group, verb] = name.split(' ');
      const given = (o: (typeof others)[number]) => [o.long!, ...(o.required || o.optional ? [VALUE[o.long!] ?? 'x'] : [])];
      const from = env.sandbox.received.length;
      for (const o of others) {
        const r = await env.run([group!, verb!, ...(ARGS[name] ?? []), '--body', '-', ...given(o)], { input: '{}' });
        expect(r.code, `${name} ${o.long}: ${r.stderr}`).toBe(2);
        // Bulk-only options of notifications send are refused as such before --body is looked at.
        if (name === 'notifications send' && !['--email', '--topic', '--text'].includes(o.long!)) expect(r.stderr).toContain('with --csv');
        else expect(r.stderr).toBe(`pdesk: --body sends a complete ${WHAT[name]} as is and cannot be combined with ${o.long}.\n`);
        expect(r.stdout).toBe('');
      }
      // All of them at once are named in the order of the command's options.
      const firstTwo = others.slice(0, 2);
      const both = await env.run([group!, verb!, ...(ARGS[name] ?? []), '--body', '-', ...firstTwo.flatMap(given)], { input: '{}' });
      expect(both.code).toBe(2);
      if (name !== 'notifications send')
        expect(both.stderr).toContain(`cannot be combined with ${firstTwo.map((o) => o.long).join(', ')}.`);
      expect(env.sandbox.received.slice(from)).toEqual([]);
    },
  );
});

/** A Communication (valid but for its depth) with an unknown field nested `levels` deep in all. */
function deepMessage(levels: number): string {
  const inner = levels - 2; // the Communication and the field's own array
  return `{"resourceType":"Communication","deep":[${'['.repeat(inner)}${']'.repeat(inner)}]}`;
}

describe('--body is bounded before anything is sent (issue 35, item 4)', () => {
  it.each([[1_000], [4_500], [100_000]])(
    'a body nested %i levels deep exits 2 naming --body and the path, with or without --dry-run; nothing sent',
    async (levels) => {
      const from = env.sandbox.received.length;
      for (const args of [
        ['chat', 'send', '--body', '-'],
        ['chat', 'send', '--body', '-', '--dry-run'],
        ['api', 'POST', '/Communication', '--body', '-'],
        ['api', 'POST', '/Communication', '--body', '-', '--dry-run'],
      ]) {
        const r = await env.run(args, { input: deepMessage(levels) });
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toMatch(
          /^pdesk: --body: standard input is nested more than 100 levels deep at \$\.deep\[0\]\[0\]\[0\]\[0\]\[0\]…\[0\] \(pdesk sends at most 100\); nothing was sent\.\n$/,
        );
        expect(r.stderr).not.toContain("server's answer");
        expect(r.stdout).toBe('');
      }
      expect(env.sandbox.received.slice(from)).toEqual([]);
    },
  );

  it('a body of exactly 100 levels is read (and then checked as the resource it claims to be)', async () => {
    const r = await env.run(['chat', 'send', '--body', '-', '--dry-run'], { input: deepMessage(100) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('The request body is invalid at $.id'); // the schema, not the bound
  });

  it('a file larger than 5 MB is refused by its size before it is read; an integer beyond 2^53 is refused, not rounded', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tempDir } = await import('../helpers/config.js');
    const big = join(tempDir(), 'big.json');
    writeFileSync(big, `{"x":"${'a'.repeat(5 * 1024 * 1024)}"}`);
    const from = env.sandbox.received.length;
    const r = await env.run(['api', 'POST', '/Communication', '--body', big]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`pdesk: --body: ${big} is ${5 * 1024 * 1024 + 8} bytes, more than the 5242880 pdesk sends; nothing was sent.\n`);
    const n = await env.run(['api', 'POST', '/Communication', '--body', '-'], {
      input: '{"resourceType":"Communication","n":[1,9007199254740993]}',
    });
    expect(n.code).toBe(2);
    expect(n.stderr).toBe(
      'pdesk: --body: standard input: at $.n[1], the integer 9007199254740993 is beyond what a JSON number keeps exactly (2^53); write it as a string; nothing was sent.\n',
    );
    expect(env.sandbox.received.slice(from)).toEqual([]);
  });

  it('a body that is not JSON is described by line and column', async () => {
    const r = await env.run(['chat', 'send', '--body', '-'], { input: '{\n  "resourceType": "Communication",\n  oops\n}' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'pdesk: --body: standard input is not valid JSON (expected a property name in double quotes at line 3, column 3).\n',
    );
  });
});
