/**
 * Every command runs from the build src/cli/route.ts gives it (dist/cli.cjs, dist/tui.cjs, dist/main.js), and
 * never reaches what that build left out: the one-shot bundle's stubs (undici, Ink, React, conf, the TUI, the
 * sandbox, the receiver, the bulk send) throw "is not in the one-shot bundle" when used. Each command's --help,
 * and a representative run of each against the sandbox, from dist as a process; with a team store configured (a
 * real PostgreSQL), one-shot commands that use the desk's store run from dist/cli.cjs.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { buildFor } from '../../src/cli/route.js';
import { type CliResult, type Env, runCli, tempDir, withSandbox } from '../helpers/cli.js';
import { clusterForFile, pgInstalled } from '../helpers/pg.js';

const pg = clusterForFile();

const STUB = /is not in the one-shot bundle|unexpected error/;

/** A script in V8's coverage (NODE_V8_COVERAGE): its functions, each with the times its ranges ran. */
interface CoveredScript {
  url: string;
  functions: Array<{ functionName: string; ranges: Array<{ count: number }> }>;
}

/** Every command path of the program: `['slots']`, `['slots', 'list']`, … */
function commandPaths(cmd: Command, prefix: string[] = []): string[][] {
  return cmd.commands.flatMap((c) => {
    const path = [...prefix, c.name()];
    return [path, ...commandPaths(c, path)];
  });
}

/** Run `lines` as processes, at most `n` at a time (the machine is small and shared). */
async function inBatches(lines: string[][], n: number, run: (args: string[]) => Promise<CliResult>): Promise<CliResult[]> {
  const out: CliResult[] = [];
  for (let i = 0; i < lines.length; i += n) out.push(...(await Promise.all(lines.slice(i, i + n).map(run))));
  return out;
}

describe('every command from its build', () => {
  const paths = commandPaths(buildProgram());

  it('knows the commands of every build', () => {
    const builds = new Set(paths.map((p) => buildFor(p)));
    expect([...builds].sort()).toEqual(['cli', 'main', 'tui']);
    for (const name of ['api', 'audit', 'auth', 'trace', 'completion', 'store']) expect(buildFor([name])).toBe('cli');
    for (const name of ['check', 'doctor', 'listen', 'sandbox']) expect(buildFor([name])).toBe('main');
  });

  it('holds in each build only the packages it needs: no undici, Ink, React or conf one-shot; of undici only its Pool; postgres in each', () => {
    const dist = fileURLToPath(new URL('../../dist', import.meta.url));
    // esbuild heads each bundled module with its path: `// node_modules/undici/lib/dispatcher/pool.js`.
    const modules = (file: string) =>
      [...readFileSync(join(dist, file), 'utf8').matchAll(/^\/\/ node_modules\/(\S+)$/gm)].map((m) => m[1]!);
    const packages = (file: string) => new Set(modules(file).map((m) => m.split('/')[0]));
    for (const left of ['undici', 'ink', 'react', 'conf']) expect(packages('cli.cjs').has(left), left).toBe(false);
    const chunks = readdirSync(join(dist, 'chunks')).map((f) => `chunks/${f}`);
    for (const file of ['tui.cjs', ...chunks]) {
      const undici = modules(file).filter((m) => m.startsWith('undici/'));
      // The index would bring fetch's client, WebSocket, the cache and the mock agents along.
      expect(
        undici.filter((m) => /^undici\/(index\.js|lib\/(web\/websocket|mock|cache|interceptor)\/)/.test(m)),
        file,
      ).toEqual([]);
      if (undici.length) expect(undici, file).toContain('undici/lib/dispatcher/pool.js');
    }
    expect(chunks.some((f) => modules(f).includes('undici/lib/dispatcher/pool.js'))).toBe(true);
    // The PostgreSQL driver in every build (a team store's commands run from any), in one chunk of the split build.
    for (const file of ['cli.cjs', 'tui.cjs']) expect(packages(file).has('postgres'), file).toBe(true);
    expect(chunks.filter((f) => packages(f).has('postgres'))).toHaveLength(1);
    // The two bundles read through vm.Script are ASCII, so node reads them as one-byte text (scripts/build.mjs).
    for (const file of ['cli.cjs', 'tui.cjs']) expect(/[^\x00-\x7f]/.test(readFileSync(join(dist, file), 'latin1')), file).toBe(false);
  });

  it('--help of each command prints its usage and exits 0', async () => {
    const configDir = tempDir();
    const lines = paths.map((p) => [...p, '--help']);
    const results = await inBatches(lines, 4, (args) => runCli(args, { configDir, timeoutMs: 60_000 }));
    results.forEach((r, i) => {
      const path = paths[i]!.join(' ');
      expect({ path, code: r.code, stderr: r.stderr }).toEqual({ path, code: 0, stderr: '' });
      expect(r.stdout.startsWith(`Usage: pdesk ${path} `)).toBe(true);
    });
  }, 300_000);

  describe('a representative run of each', () => {
    let env: Env;
    beforeAll(async () => {
      env = await withSandbox();
    });
    afterAll(() => env.close());

    const GP = 'urn:pdesk:service-category|gp';
    const ok = async (args: string[], codes = [0]) => {
      const r = await env.run(args, { timeoutMs: 60_000 });
      expect(STUB.test(r.stderr), `${args.join(' ')}: ${r.stderr}`).toBe(false);
      expect(codes, `${args.join(' ')} exited ${r.code}: ${r.stderr}`).toContain(r.code);
      return r;
    };

    it('one-shot reads, writes (with their audit trail), api, auth, trace, completion and __complete run from dist/cli.cjs', async () => {
      const trace = join(tempDir(), 'trace.ndjson');
      await inBatches(
        [
          ['appointment-types', 'list', '--service-category', 'gp', '--json'],
          ['practitioners', 'list', '--json'],
          ['schedules', 'list', '--service-category', GP, '--json'],
          ['slots', 'list', '--service-category', GP, '--from', '2026-03-01', '--to', '2026-03-07', '--json'],
          ['appointments', 'list', '--json'],
          ['medications', 'list', '--json'],
          ['medications', 'show', 'mr-1', '--json'],
          ['chat', 'threads', '--json'],
          ['api', 'get', '/Schedule?_count=5', '--param', 'service-category=urn:pdesk:service-category|gp'],
          ['auth', 'status', '--json'],
          ['completion', 'bash'],
          ['__complete', 'sl'],
          ['profile', 'list', '--json'],
          ['profile', 'show', env.profile.name!],
        ],
        4,
        (args) => ok(args),
      );
      expect(
        (await ok(['notifications', 'send', '--email', 'a@example.org', '--topic', 't', '--text', 'x', '--json'])).json(),
      ).toBeTruthy();
      expect((await ok(['audit', '--json'])).stdout).toContain('C5');
      await ok(['--trace', trace, 'practitioners', 'list', '--json']);
      expect((await ok(['trace', 'show', trace])).stdout).toContain('/PractitionerRole');
    }, 300_000);

    it("a one-shot read loads of node's own modules only what its request needs", async () => {
      // Each costs every one-shot start: perf_hooks (~0.5–1 ms, loaded by `performance.now()`), tty (by isatty()
      // at load, though only prompts ask), and the ES module loader (bin/pdesk.js is CommonJS).
      const dir = tempDir();
      const list = join(dir, 'modules.txt');
      const preload = join(dir, 'list-modules.cjs');
      writeFileSync(
        preload,
        `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));\n`,
      );
      const r = await env.run(['appointment-types', 'list', '--service-category', 'gp', '--json'], {
        env: { NODE_OPTIONS: `--require "${preload}"` },
      });
      expect(r.code, r.stderr).toBe(0);
      const loaded = readFileSync(list, 'utf8').split('\n');
      expect(loaded).toContain('NativeModule http'); // the list is the real one
      for (const left of ['NativeModule perf_hooks', 'NativeModule tty', 'NativeModule internal/modules/esm/loader'])
        expect(loaded, left).not.toContain(left);
    }, 60_000);

    it("a command line evaluates its own verb's module and no other; help evaluates none, nor what they use of the core", async () => {
      // V8's coverage of dist/cli.cjs names each module evaluated on first use by its path: esbuild wraps it as
      // `__esm({"src/cli/commands/slots/list.ts"() {…}})`, a function that runs when the module is evaluated.
      const evaluated = async (args: string[]) => {
        const dir = tempDir();
        const r = await env.run(args, { env: { NODE_V8_COVERAGE: dir } });
        expect(STUB.test(r.stderr), `${args.join(' ')}: ${r.stderr}`).toBe(false);
        const ran = new Set<string>();
        for (const f of readdirSync(dir))
          for (const script of JSON.parse(readFileSync(join(dir, f), 'utf8')).result as CoveredScript[])
            if (script.url.endsWith('/dist/cli.cjs'))
              for (const fn of script.functions)
                if (fn.functionName.startsWith('src/') && fn.ranges[0]!.count > 0) ran.add(fn.functionName);
        return { code: r.code, ran: [...ran] };
      };
      // What the definitions import besides commander and the CLI's own helpers (`./methods.js`): data, no code.
      const commandsDir = fileURLToPath(new URL('../../src/cli/commands', import.meta.url));
      const definitions = new Set(
        readdirSync(commandsDir, { withFileTypes: true })
          .filter((d) => d.isDirectory())
          .flatMap((d) =>
            [
              ...readFileSync(join(commandsDir, d.name, 'index.ts'), 'utf8').matchAll(/^import (?!type )[^;]*from '\.\/([\w-]+)\.js';$/gm),
            ].map((m) => `src/cli/commands/${d.name}/${m[1]}.ts`),
          ),
      );
      const verbs = (ran: string[]) => ran.filter((m) => m.startsWith('src/cli/commands/') && !definitions.has(m)).sort();
      // What the commands' code uses of the core: its APIs, their schemas, the labels of their tables.
      const apis = (ran: string[]) =>
        ran.filter((m) => /^src\/core\/(api\/|labels|schemas\/(appointment|chat|medication|notification))/.test(m));

      const slots = await evaluated(['slots', 'list', '--service-category', GP, '--from', 'today', '--to', 'today', '--json']);
      expect(slots.code).toBe(0);
      expect(verbs(slots.ran)).toEqual(['src/cli/commands/slots/list.ts']);
      expect(slots.ran).toContain('src/core/api/appointments.ts'); // the coverage is the real one
      const threads = await evaluated(['chat', 'threads', '--json']);
      expect(verbs(threads.ran)).toEqual(['src/cli/commands/chat/store.ts', 'src/cli/commands/chat/threads.ts']);
      for (const help of [['slots', 'list', '--help'], ['chat', '--help'], ['--help', '--no-color'], ['help', 'chat'], ['slot']]) {
        const r = await evaluated(help);
        expect(verbs(r.ran), help.join(' ')).toEqual([]);
        expect(apis(r.ran), help.join(' ')).toEqual([]);
      }
    }, 120_000);

    it.skipIf(!pgInstalled)(
      'with a team store, a write (audited there), audit, chat threads and store status run from dist/cli.cjs',
      async () => {
        const url = await pg().createDatabase();
        const team = { PDESK_STORE_URL: url, PDESK_OPERATOR: 'dana' };
        const run = async (args: string[]) => {
          const r = await env.run(args, { timeoutMs: 60_000, env: team });
          expect(STUB.test(r.stderr), `${args.join(' ')}: ${r.stderr}`).toBe(false);
          expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
          return r;
        };
        expect(buildFor(['store', 'status'])).toBe('cli');
        await run(['notifications', 'send', '--email', 'a@example.org', '--topic', 't', '--text', 'x', '--json']);
        expect((await run(['audit', '--json'])).json()).toMatchObject([{ op: 'C5', user: 'dana', status: 201 }]);
        expect((await run(['chat', 'threads', '--json'])).json()).toBeTruthy();
        expect((await run(['store', 'status', '--json'])).json()).toMatchObject({ engine: 'postgres', reachable: true });
      },
      120_000,
    );

    it('check, doctor, a bulk send and a profile write run from dist/main.js', async () => {
      const dir = tempDir();
      const csv = join(dir, 'rows.csv');
      (await import('node:fs')).writeFileSync(csv, 'email,name\nb@example.org,B\n');
      await ok(['check', '--json'], [0, 7]);
      await ok(['doctor', '--json'], [0, 7]);
      await ok(['notifications', 'send', '--csv', csv, '--topic', 'T', '--text', 'Hi {name}', '--json'], [0]);
      await ok(['profile', 'use', env.profile.name!]);
    }, 300_000);
  });
});
