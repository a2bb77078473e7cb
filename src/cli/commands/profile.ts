/**
 * `pdesk profile import|list|show|use|remove|add` — the profile store (cli.md "Profile file"). Secrets are never
 * printed: a stored `token`/`password` shows as `***`; names of environment variables are shown.
 */
import { Command } from 'commander';
import type { Profile, ProfileInput } from '../../profiles/schema.js';
import { action, type Context } from '../context.js';
import { examples } from '../help.js';

interface ProfileRow {
  name: string;
  default: boolean;
  environment?: string;
  practiceUrl?: string;
  portalUrl?: string;
  appointmentApi?: string;
}

function row(name: string, isDefault: boolean, p: ProfileInput): ProfileRow {
  return {
    name,
    default: isDefault,
    environment: p.environment,
    practiceUrl: p.practice?.baseUrl,
    portalUrl: p.portal?.baseUrl,
    appointmentApi: p.appointmentApi ?? '2.0.0',
  };
}

/** `practice.auth.type  bearer` lines for a profile in table mode. */
function flatten(value: unknown, prefix = '', out: Array<[string, string]> = []): Array<[string, string]> {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else out.push([prefix, typeof value === 'string' ? value : JSON.stringify(value)]);
  return out;
}

async function profileTable(profile: ProfileInput, isDefault: boolean, head?: string): Promise<string> {
  const { sanitize } = await import('../../core/sanitize.js');
  const lines = flatten({ ...profile, default: isDefault });
  const kw = Math.max(...lines.map(([k]) => k.length));
  const body = lines.map(([k, v]) => `${k.padEnd(kw)}  ${sanitize(v)}`).join('\n');
  return head ? `${head}\n${body}` : body;
}

/** The file mode of the store must be 0600 (it may hold a stored token); tighten it if something loosened it. */
async function ensurePrivate(path: string, ctx: Context): Promise<void> {
  const { chmodSync, statSync } = await import('node:fs');
  const mode = statSync(path).mode & 0o777;
  if (mode !== 0o600) {
    chmodSync(path, 0o600);
    ctx.log(`profile store ${path} had mode ${mode.toString(8)}; set to 600`);
  }
}

/**
 * `--dry-run` promises that nothing happens. These commands send no request but change the profile store, so
 * under --dry-run they stop with a usage error instead of changing it.
 */
async function refuseDryRun(ctx: Context, verb: string): Promise<void> {
  if (!ctx.dryRun) return;
  const { UsageError } = await import('../../core/errors.js');
  throw new UsageError(
    `--dry-run does not apply to profile ${verb}, which sends no request but changes the profile store; nothing was changed.`,
  );
}

const REQUIRED_ADD = [
  ['name', '--name', 'Profile name'],
  ['practiceUrl', '--practice-url', 'Practice system base URL'],
  ['portalUrl', '--portal-url', 'Portal base URL'],
  ['portalNamespace', '--portal-namespace', 'Portal namespace (<portal> prefix)'],
  ['practiceNamespace', '--practice-namespace', 'Practice system namespace (<practice_system> prefix)'],
] as const;

interface AddOptions {
  name?: string;
  practiceUrl?: string;
  portalUrl?: string;
  portalNamespace?: string;
  practiceNamespace?: string;
  appointmentApi?: string;
  approvalFlow?: boolean;
  environment?: string;
  practiceTokenEnv?: string;
  portalTokenEnv?: string;
  default?: boolean;
  force?: boolean;
}

/** Check one `profile add` value; a bad one is a usage error naming its option. */
async function checkAddValue(key: string, value: string, option: string): Promise<string> {
  const { UsageError } = await import('../../core/errors.js');
  const v = value.trim();
  if (!v) throw new UsageError(`${option} must not be empty.`);
  if (key === 'name' && !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(v))
    throw new UsageError(`${option} must be letters, digits, ".", "_" or "-", not "${value}".`);
  if (key.endsWith('Url')) {
    let ok = false;
    try {
      ok = /^https?:$/.test(new URL(v).protocol);
    } catch {
      /* not a URL */
    }
    if (!ok) throw new UsageError(`${option} must be an http:// or https:// URL, not "${value}".`);
  }
  if (key === 'appointmentApi' && v !== '2.0.0' && v !== '1.0.0')
    throw new UsageError(`${option} must be one of 2.0.0, 1.0.0, not "${value}".`);
  if (key === 'approvalFlow' && !/^(y|yes|n|no)$/i.test(v)) throw new UsageError(`Answer y or n, not "${value}".`);
  if (key.endsWith('TokenEnv') && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(v))
    throw new UsageError(`${option} must be the name of an environment variable, not "${value}".`);
  return v;
}

/**
 * Ask for what is missing (stdin is a terminal). Prompts go to stderr so stdout stays clean. Lines are queued,
 * so answers typed (or pasted) ahead of their prompt are not lost; end of input cancels.
 */
async function promptMissing(ctx: Context, o: AddOptions): Promise<void> {
  const { createInterface } = await import('node:readline');
  const { UsageError } = await import('../../core/errors.js');
  const rl = createInterface({ input: ctx.io.stdin, output: ctx.io.stderr, terminal: ctx.io.stdinIsTTY });
  const queued: string[] = [];
  let waiting: ((line: string | undefined) => void) | undefined;
  let closed = false;
  rl.on('line', (line) => {
    if (waiting) {
      const w = waiting;
      waiting = undefined;
      w(line);
    } else queued.push(line);
  });
  rl.on('close', () => {
    closed = true;
    waiting?.(undefined);
    waiting = undefined;
  });
  const nextLine = (prompt: string): Promise<string | undefined> => {
    rl.setPrompt(prompt);
    rl.prompt();
    if (queued.length) return Promise.resolve(queued.shift());
    if (closed) return Promise.resolve(undefined);
    return new Promise((resolve) => (waiting = resolve));
  };
  const ask = async (label: string, key: string, option: string, fallback?: string): Promise<string | undefined> => {
    for (let tries = 0; tries < 3; tries++) {
      const line = await nextLine(`${label}${fallback !== undefined ? ` [${fallback}]` : ''}: `);
      if (line === undefined) throw new UsageError(`profile add was cancelled before ${option} was given.`);
      const answer = line.trim();
      if (!answer && fallback !== undefined) return fallback || undefined;
      try {
        return await checkAddValue(key, answer, option);
      } catch (e) {
        ctx.io.stderr.write(`  ${(e as Error).message}\n`);
      }
    }
    throw new UsageError(`No valid value for ${option} was given.`);
  };
  try {
    const rec = o as Record<string, unknown>;
    for (const [key, option, label] of REQUIRED_ADD) if (rec[key] === undefined) rec[key] = await ask(label, key, option);
    if (o.environment === undefined)
      o.environment = await ask('Environment label (e.g. test, production)', 'environment', '--environment', '');
    if (o.appointmentApi === undefined)
      o.appointmentApi = await ask('Appointment API version (2.0.0 or 1.0.0)', 'appointmentApi', '--appointment-api', '2.0.0');
    if (o.approvalFlow === undefined)
      o.approvalFlow = /^y/i.test((await ask('Approval flow (y/n)', 'approvalFlow', '--approval-flow', 'n')) ?? '');
    if (o.practiceTokenEnv === undefined)
      o.practiceTokenEnv = await ask(
        'Environment variable with the practice bearer token (empty: no auth)',
        'practiceTokenEnv',
        '--practice-token-env',
        '',
      );
  } finally {
    rl.close();
  }
}

export function profileCommand(): Command {
  const cmd = new Command('profile')
    .description('manage profiles (practice system + portal connection settings)')
    .addHelpText(
      'after',
      examples('pdesk profile import profiles/practice-2.0.0.json --default', 'pdesk profile list', 'pdesk profile use practice-2.0.0'),
    );

  cmd
    .command('import')
    .description('add or replace a profile from a JSON file (see profiles/)')
    .addHelpText(
      'after',
      examples('pdesk profile import profiles/practice-2.0.0.json --default', 'pdesk profile import vendor-profile.json --name acme-test'),
    )
    .argument('<file>', 'profile JSON file, or - for standard input')
    .option('--name <name>', 'store it under this name instead of the file\'s "name"')
    .option('--default', 'make it the default profile')
    .action(
      action(async (ctx, file: string, opts: { name?: string; default?: boolean }) => {
        await refuseDryRun(ctx, 'import');
        const { ConfigError } = await import('../../core/errors.js');
        const { validateProfile } = await import('../../profiles/store.js');
        const { redactProfile } = await import('../../profiles/redact.js');
        const store = await ctx.store();
        // A store file that is not a profile store stops the import before the file is read: nothing is written.
        store.read();
        const source = file === '-' ? 'standard input' : file;
        // Bounded, and an error names line and column without quoting the file (src/core/json.ts).
        const { describeJsonProblem, readJson } = await import('../../core/json.js');
        const read = readJson(ctx.readText(file, '<file>'));
        if (!read.ok)
          throw new ConfigError(`The profile in ${source} is not valid JSON.`, [
            `${read.problem.kind === 'syntax' ? '' : `at ${read.problem.path}: `}${describeJsonProblem(read.problem)}`,
          ]);
        const raw = read.value;
        const input = raw && typeof raw === 'object' && !Array.isArray(raw) && opts.name !== undefined ? { ...raw, name: opts.name } : raw;
        const profile: Profile = validateProfile(input, source);
        await store.save(profile, !!opts.default);
        await ensurePrivate(store.path, ctx);
        const isDefault = store.defaultName() === profile.name;
        const shown = redactProfile(profile);
        const table = await profileTable(
          shown,
          isDefault,
          `Saved profile "${profile.name}"${isDefault ? ' (default)' : ''} in ${store.path}:`,
        );
        ctx.emitOne({ saved: profile.name, default: isDefault, store: store.path, profile: shown }, () => table);
      }),
    );

  cmd
    .command('list')
    .description('list the profiles')
    .addHelpText('after', examples('pdesk profile list', 'pdesk profile list --json'))
    .action(
      action(async (ctx) => {
        const rows = (await ctx.store()).list().map((p) => row(p.name, p.isDefault, p.profile));
        ctx.emitList<ProfileRow>(rows, [
          { header: 'NAME', value: (r) => r.name },
          { header: 'DEFAULT', value: (r) => (r.default ? '*' : '') },
          { header: 'ENVIRONMENT', value: (r) => r.environment },
          { header: 'PRACTICE URL', value: (r) => r.practiceUrl, flex: true },
          { header: 'API', value: (r) => r.appointmentApi },
        ]);
        if (rows.length === 0 && ctx.format === 'table') ctx.err('Add one with `pdesk profile import <file>` or `pdesk profile add`.');
      }),
    );

  cmd
    .command('show')
    .description('show a profile, secrets redacted (default: the selected profile)')
    .addHelpText('after', examples('pdesk profile show', 'pdesk profile show practice-2.0.0 --json'))
    .argument('[name]', 'profile name (else --profile, PDESK_PROFILE, the default)')
    .action(
      action(async (ctx, name: string | undefined) => {
        const { ConfigError } = await import('../../core/errors.js');
        const { redactProfile } = await import('../../profiles/redact.js');
        const store = await ctx.store();
        const all = store.list();
        const wanted = name ?? ctx.globals.profile ?? ctx.io.env.PDESK_PROFILE ?? store.defaultName();
        const known = all.length
          ? [`Known profiles: ${all.map((p) => p.name).join(', ')}.`]
          : ['No profiles yet: add one with `pdesk profile import <file>`.'];
        if (!wanted) throw new ConfigError('No profile is selected and there is no default profile.', known);
        const found = all.find((p) => p.name === wanted);
        if (!found) {
          const { noProfileNamed } = await import('../../profiles/store.js');
          throw noProfileNamed(
            wanted,
            all.map((p) => p.name),
          );
        }
        const shown = redactProfile(found.profile);
        const table = await profileTable(shown, found.isDefault);
        ctx.emitOne({ ...shown, default: found.isDefault }, () => table);
      }),
    );

  cmd
    .command('use')
    .description('make a profile the default')
    .addHelpText('after', examples('pdesk profile use practice-2.0.0'))
    .argument('<name>', 'profile name')
    .action(
      action(async (ctx, name: string) => {
        await refuseDryRun(ctx, 'use');
        await (await ctx.store()).setDefault(name);
        ctx.emitOne({ ok: true, default: name }, () => `Default profile is now "${name}".`);
      }),
    );

  cmd
    .command('remove')
    .description('remove a profile')
    .addHelpText('after', examples('pdesk profile remove practice-1.0.0'))
    .argument('<name>', 'profile name')
    .action(
      action(async (ctx, name: string) => {
        await refuseDryRun(ctx, 'remove');
        const store = await ctx.store();
        await store.remove(name);
        const def = store.defaultName();
        ctx.emitOne(
          { ok: true, removed: name, default: def ?? null },
          () => `Removed profile "${name}".${def ? '' : ' There is no default profile now: pick one with `pdesk profile use <name>`.'}`,
        );
      }),
    );

  cmd
    .command('add')
    .description('add a profile from options (asks for missing ones on a terminal)')
    .addHelpText(
      'after',
      examples(
        'pdesk profile add --name acme-test --environment test \\',
        '  --practice-url https://practice.acme.example/fhir \\',
        '  --portal-url https://portal.example.org/api \\',
        '  --portal-namespace portal.example --practice-namespace acme.example \\',
        '  --practice-token-env ACME_TOKEN --portal-token-env PORTAL_TOKEN',
        'pdesk profile add            # on a terminal: asks for each setting',
      ),
    )
    .option('--name <name>', 'profile name')
    .option('--practice-url <url>', 'practice system base URL')
    .option('--portal-url <url>', 'portal base URL')
    .option('--portal-namespace <ns>', 'the <portal> namespace prefix')
    .option('--practice-namespace <ns>', 'the <practice_system> namespace prefix')
    .option('--appointment-api <version>', 'appointment API version: 2.0.0 or 1.0.0')
    .option('--approval-flow', 'the practice uses the approval flow (practitioner needs-action)')
    .option('--environment <label>', 'environment label shown by the TUI, e.g. test or production')
    .option('--practice-token-env <NAME>', 'environment variable holding the practice system bearer token')
    .option('--portal-token-env <NAME>', 'environment variable holding the portal bearer token')
    .option('--default', 'make it the default profile')
    .option('--force', 'replace a profile of the same name')
    .action(
      action(async (ctx, opts: AddOptions) => {
        await refuseDryRun(ctx, 'add');
        // A store file that is not a profile store stops the command before it asks anything.
        (await ctx.store()).read();
        const { UsageError } = await import('../../core/errors.js');
        const { oneOf } = await import('../options.js');
        const rec = opts as Record<string, unknown>;
        const missing = REQUIRED_ADD.filter(([key]) => rec[key] === undefined);
        if (missing.length) {
          if (!ctx.io.stdinIsTTY) {
            const [first, ...rest] = missing;
            throw new UsageError(
              `Missing option ${first![1]} (profile add asks for it only when standard input is a terminal).`,
              rest.length ? [`Also missing: ${rest.map((m) => m[1]).join(', ')}.`] : [],
            );
          }
          await promptMissing(ctx, opts);
        }
        for (const [key, option] of [
          ...REQUIRED_ADD,
          ['environment', '--environment'],
          ['practiceTokenEnv', '--practice-token-env'],
          ['portalTokenEnv', '--portal-token-env'],
        ] as const)
          if (typeof rec[key] === 'string') rec[key] = await checkAddValue(key, rec[key] as string, option);
        const api = oneOf(opts.appointmentApi ?? '2.0.0', ['2.0.0', '1.0.0'] as const, '--appointment-api');
        const { validateProfile } = await import('../../profiles/store.js');
        const store = await ctx.store();
        if (!opts.force && store.list().some((p) => p.name === opts.name))
          throw new UsageError(`A profile named "${opts.name}" exists already; use --force to replace it.`);
        const input: ProfileInput = {
          name: opts.name!,
          ...(opts.environment ? { environment: opts.environment } : {}),
          appointmentApi: api,
          approvalFlow: !!opts.approvalFlow,
          namespaces: { portal: opts.portalNamespace!, practice: opts.practiceNamespace! },
          practice: {
            baseUrl: opts.practiceUrl!,
            auth: opts.practiceTokenEnv ? { type: 'bearer', tokenEnv: opts.practiceTokenEnv } : { type: 'none' },
          },
          portal: {
            baseUrl: opts.portalUrl!,
            auth: opts.portalTokenEnv ? { type: 'bearer', tokenEnv: opts.portalTokenEnv } : { type: 'none' },
          },
        };
        const profile = validateProfile(input, 'the options of profile add');
        await store.save(profile, !!opts.default, { replace: !!opts.force });
        await ensurePrivate(store.path, ctx);
        const isDefault = store.defaultName() === profile.name;
        const table = await profileTable(
          profile,
          isDefault,
          `Saved profile "${profile.name}"${isDefault ? ' (default)' : ''} in ${store.path}:`,
        );
        ctx.emitOne({ saved: profile.name, default: isDefault, store: store.path, profile }, () => table);
      }),
    );

  return cmd;
}
