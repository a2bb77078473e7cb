/** `pdesk sandbox`: start the embedded practice system + portal, save its profile, print how to use it, stay up. */
import { writeFileSync } from 'node:fs';
import { ConfigError, UsageError } from '../../../core/errors.js';
import type { OpId } from '../../../core/ops.js';
import { registerSecret } from '../../../core/redact.js';
import type { ProfileInput } from '../../../core/profile/schema.js';
import { asOpId } from '../../../sandbox/breaks.js';
import { sandboxProfile } from '../../../sandbox/profile.js';
import { type Sandbox, startSandbox } from '../../../sandbox/server.js';
import type { Context } from '../../context.js';
import { oneOf, positiveInt } from '../../options.js';
import { SANDBOX_PROFILE_NAME } from './defaults.js';

export interface SandboxOptions {
  port: string;
  host: string;
  appointmentApi: string;
  approvalFlow?: boolean;
  latency?: string;
  failRate?: string;
  pushTo?: string;
  tokenEnv?: string;
  replyDelay?: string;
  profileOut?: string;
  /** false with --no-profile. */
  profile: boolean;
  break?: string[];
  fail?: string[];
  throttle?: string;
}

export async function run(ctx: Context, opts: SandboxOptions): Promise<void> {
  const port = positiveInt(opts.port, '--port', { allowZero: true });
  if (port > 65535) throw new UsageError(`--port must be between 0 and 65535, not "${opts.port}".`);
  const host = opts.host.trim();
  if (!host) throw new UsageError('--host must not be empty.');
  const appointmentApi = oneOf(opts.appointmentApi, ['2.0.0', '1.0.0'] as const, '--appointment-api');
  const latencyMs = opts.latency === undefined ? 0 : positiveInt(opts.latency, '--latency', { allowZero: true });
  const replyDelayMs = opts.replyDelay === undefined ? undefined : positiveInt(opts.replyDelay, '--reply-delay', { allowZero: true });
  let failRate = 0;
  if (opts.failRate !== undefined) {
    failRate = Number(opts.failRate);
    if (opts.failRate.trim() === '' || !Number.isFinite(failRate) || failRate < 0 || failRate > 1)
      throw new UsageError(`--fail-rate must be a number from 0 to 1, not "${opts.failRate}".`);
  }
  const breakOps = (opts.break ?? []).map((v) => {
    const op = asOpId(v);
    if (!op) throw new UsageError(`--break must name an operation A1–A7, C1–C5 or M1–M4, not "${v}".`);
    return op;
  });
  const failOps: Partial<Record<OpId, number>> = {};
  for (const v of opts.fail ?? []) {
    const m = /^([^:]+):(\d{3})$/.exec(v.trim());
    const op = m && asOpId(m[1]!);
    const status = m ? Number(m[2]) : 0;
    if (!op || status < 400 || status > 599)
      throw new UsageError(`--fail must be <op>:<status> with an error status 400–599, e.g. A4:503, not "${v}".`);
    failOps[op] = status;
  }
  const throttleEvery = opts.throttle === undefined ? undefined : positiveInt(opts.throttle, '--throttle');
  if (opts.pushTo !== undefined) {
    let ok = false;
    try {
      ok = /^https?:$/.test(new URL(opts.pushTo).protocol);
    } catch {
      /* not a URL */
    }
    if (!ok) throw new UsageError(`--push-to must be an http:// or https:// URL, not "${opts.pushTo}".`);
  }
  let token: string | undefined;
  if (opts.tokenEnv !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(opts.tokenEnv))
      throw new UsageError(`--token-env must be an environment variable name, not "${opts.tokenEnv}".`);
    token = ctx.io.env[opts.tokenEnv];
    if (!token) throw new UsageError(`--token-env ${opts.tokenEnv}: that environment variable is not set or empty.`);
    registerSecret(token);
  }

  // A profile of that name that is not a sandbox's is the operator's own: refuse before anything starts.
  const store = opts.profile ? await ctx.store() : undefined;
  const existing = store?.list().find((p) => p.name === SANDBOX_PROFILE_NAME);
  if (existing && existing.profile.environment !== 'sandbox') {
    throw new ConfigError(
      `A profile named "${SANDBOX_PROFILE_NAME}" exists and is not a sandbox's (environment ${JSON.stringify(existing.profile.environment ?? null)}): pdesk sandbox does not replace it.`,
      ['Run with --no-profile, or rename that profile.'],
    );
  }

  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({
      port,
      host,
      appointmentApi,
      approvalFlow: !!opts.approvalFlow,
      latencyMs,
      failRate,
      pushTo: opts.pushTo,
      replyDelayMs,
      token,
      breakOps,
      failOps,
      throttleEvery,
      // --verbose: one line per request on stderr (ctx.log and ctx.err sanitise and redact).
      onRequest: ctx.globals.verbose ? ctx.log : undefined,
      log: (line) => ctx.err(line),
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`--port ${port} is already in use: choose another port, or --port 0 for any free one.`);
    if (code === 'EACCES') throw new UsageError(`--port ${port} needs privileges this process does not have: choose a port above 1023.`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      throw new UsageError(`--host ${host} is not an address of this machine.`);
    throw e;
  }

  const profile: ProfileInput = sandboxProfile(sandbox.url, { appointmentApi, approvalFlow: !!opts.approvalFlow });
  if (opts.tokenEnv) {
    profile.practice.auth = { type: 'bearer', tokenEnv: opts.tokenEnv };
    profile.portal.auth = { type: 'bearer', tokenEnv: opts.tokenEnv };
  }
  if (opts.profileOut) {
    try {
      writeFileSync(opts.profileOut, `${JSON.stringify(profile, null, 2)}\n`, { mode: 0o600 });
    } catch (e) {
      await sandbox.close();
      throw new UsageError(`--profile-out: cannot write ${opts.profileOut} (${(e as NodeJS.ErrnoException).code ?? e}).`);
    }
  }

  // Saved once the port is known, before anything is printed: a script that waits for the first line of
  // output finds the profile in the store.
  let saved: { name: string; store: string; default: boolean; created: boolean } | undefined;
  if (store) {
    try {
      await store.save(profile);
    } catch (e) {
      await sandbox.close();
      throw e;
    }
    saved = {
      name: SANDBOX_PROFILE_NAME,
      store: store.path,
      default: store.defaultName() === SANDBOX_PROFILE_NAME,
      created: !existing,
    };
  }

  ctx.keepAlive = true;
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    sandbox
      .close()
      .catch(() => undefined)
      .finally(() => ctx.io.exitNow(0));
  };
  ctx.io.onSignal('SIGINT', stop);
  ctx.io.onSignal('SIGTERM', stop);

  const info = {
    url: sandbox.url,
    practice: `${sandbox.url}/practice`,
    portal: `${sandbox.url}/portal`,
    appointmentApi,
    approvalFlow: !!opts.approvalFlow,
    pushTo: opts.pushTo ?? `${sandbox.url}/portal`,
    ...(breakOps.length ? { break: breakOps } : {}),
    ...(Object.keys(failOps).length ? { fail: failOps } : {}),
    profile,
    savedProfile: saved ?? null,
  };
  if (ctx.format !== 'table') {
    // One line, so a script can read the first line of output while the sandbox keeps running.
    ctx.emitLine(info);
    return;
  }
  const file = opts.profileOut ?? 'sandbox-profile.json';
  const use = `pdesk --profile ${SANDBOX_PROFILE_NAME}`;
  const profileLines = saved
    ? [
        `${saved.created ? 'Saved' : 'Updated'} profile "${saved.name}"${saved.default ? ' (the default)' : ''} for this port in ${saved.store}` +
          (opts.profileOut ? ` (and written to ${opts.profileOut}).` : '.'),
        'Use it from another terminal:',
        `  ${use} slots list --service-category 'urn:pdesk:service-category|gp' --from today --to +7d`,
        `  ${use} check`,
        `  ${use} tui`,
      ]
    : [
        opts.profileOut ? `Profile written to ${opts.profileOut}:` : `Profile (not saved: --no-profile; save it as ${file}):`,
        JSON.stringify(profile, null, 2),
        '',
        `Import it with: pdesk profile import ${file} --default`,
      ];
  const lines = [
    `pdesk sandbox listening on ${sandbox.url}`,
    `  practice system: ${info.practice}`,
    `  portal:          ${info.portal}`,
    `  appointment API ${appointmentApi}, approval flow ${opts.approvalFlow ? 'on' : 'off'}` +
      (latencyMs ? `, latency ${latencyMs} ms` : '') +
      (failRate ? `, fail rate ${failRate}` : '') +
      (token ? `, bearer token from $${opts.tokenEnv}` : ''),
    ...(breakOps.length ? [`  broken answers (a required field missing): ${breakOps.join(', ')}`] : []),
    ...(Object.keys(failOps).length
      ? [
          `  failing operations: ${Object.entries(failOps)
            .map(([op, status]) => `${op} → ${status}`)
            .join(', ')}`,
        ]
      : []),
    opts.pushTo
      ? `  chat replies and demo pushes go to ${info.pushTo}`
      : `  automatic chat replies go to its own portal (--push-to sends them elsewhere)`,
    '',
    ...profileLines,
    'Press Ctrl-C to stop.',
  ];
  ctx.out(lines.join('\n'));
}
