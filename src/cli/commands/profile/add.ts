/** `pdesk profile add`: a profile from options, asking for the missing ones on a terminal. */
import { createInterface } from 'node:readline';
import { UsageError } from '../../../core/errors.js';
import { type ProfileInput, validateProfile } from '../../../core/profile/schema.js';
import type { Context } from '../../context.js';
import { oneOf } from '../../options.js';
import { ensurePrivate, profileTable, refuseDryRun } from './shared.js';

const REQUIRED_ADD = [
  ['name', '--name', 'Profile name'],
  ['practiceUrl', '--practice-url', 'Practice system base URL'],
  ['portalUrl', '--portal-url', 'Portal base URL'],
  ['portalNamespace', '--portal-namespace', 'Portal namespace (<portal> prefix)'],
  ['practiceNamespace', '--practice-namespace', 'Practice system namespace (<practice_system> prefix)'],
] as const;

export interface AddOptions {
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
function checkAddValue(key: string, value: string, option: string): string {
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
        return checkAddValue(key, answer, option);
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

export async function run(ctx: Context, opts: AddOptions): Promise<void> {
  refuseDryRun(ctx, 'add');
  // A store file that is not a profile store stops the command before it asks anything.
  (await ctx.store()).read();
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
    if (typeof rec[key] === 'string') rec[key] = checkAddValue(key, rec[key] as string, option);
  const api = oneOf(opts.appointmentApi ?? '2.0.0', ['2.0.0', '1.0.0'] as const, '--appointment-api');
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
  ensurePrivate(store.path, ctx);
  const isDefault = store.defaultName() === profile.name;
  const table = profileTable(profile, isDefault, `Saved profile "${profile.name}"${isDefault ? ' (default)' : ''} in ${store.path}:`);
  ctx.emitOne({ saved: profile.name, default: isDefault, store: store.path, profile }, () => table);
}
