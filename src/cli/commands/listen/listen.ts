/**
 * `pdesk listen`: the push receiver (src/listen) on this machine's port, its records into the desk store (the
 * profile's thread store, or the team store on PostgreSQL when one is configured: decisions.md §17).
 */
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { ConfigError, UsageError } from '../../../core/errors.js';
import { registerSecret } from '../../../core/redact.js';
import { describeRecord } from '../../../core/threads/index.js';
import { type Receiver, startReceiver } from '../../../listen/receiver.js';
import type { Context } from '../../context.js';
import { positiveInt } from '../../options.js';
import { safeJson } from '../../output.js';

export interface ListenOptions {
  port: string;
  host: string;
  tokenEnv?: string;
  tlsCert?: string;
  tlsKey?: string;
  insecure?: boolean;
  maxConnections: string;
  shutdownTimeout: string;
}

/** An address that only this machine can reach (a name other than localhost could resolve to anything). */
export function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const v4 = h.replace(/^::ffff:/, '');
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

export async function run(ctx: Context, opts: ListenOptions): Promise<void> {
  const port = positiveInt(opts.port, '--port', { allowZero: true });
  if (port > 65535) throw new UsageError(`--port must be at most 65535, not ${port}.`);
  if (!opts.host.trim()) throw new UsageError('--host must not be empty.');
  const maxConnections = positiveInt(opts.maxConnections, '--max-connections');
  const graceSeconds = positiveInt(opts.shutdownTimeout, '--shutdown-timeout', { allowZero: true });
  if ((opts.tlsCert === undefined) !== (opts.tlsKey === undefined))
    throw new UsageError(
      `${opts.tlsCert === undefined ? '--tls-key' : '--tls-cert'} needs ${opts.tlsCert === undefined ? '--tls-cert' : '--tls-key'}: give both, or neither.`,
    );
  if (opts.tokenEnv === undefined && !opts.insecure && !isLoopback(opts.host))
    throw new UsageError(
      `--host ${opts.host} can be reached from other machines, so it needs --token-env NAME (or --insecure to take pushes from anyone who can reach it).`,
    );
  let tls: { cert: Buffer; key: Buffer } | undefined;
  if (opts.tlsCert !== undefined && opts.tlsKey !== undefined) {
    const read = (file: string, option: string) => {
      try {
        return readFileSync(file);
      } catch (e) {
        throw new UsageError(`${option}: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
      }
    };
    tls = { cert: read(opts.tlsCert, '--tls-cert'), key: read(opts.tlsKey, '--tls-key') };
    try {
      createSecureContext(tls);
    } catch (e) {
      throw new UsageError(
        `--tls-cert and --tls-key are not a PEM certificate and its private key (${(e as Error).message.replace(/^error:[0-9A-F]+:/, '')}).`,
      );
    }
  }
  let token: string | undefined;
  if (opts.tokenEnv !== undefined) {
    token = ctx.io.env[opts.tokenEnv];
    if (!token)
      throw new ConfigError(`The environment variable ${opts.tokenEnv} (--token-env) is not set or empty.`, [
        `Set it, e.g. export ${opts.tokenEnv}=…`,
      ]);
    registerSecret(token);
  }
  const format = ctx.format;
  const profile = await ctx.profile();
  // The store every command of this desk uses: the team store when one is configured, else the local files.
  const store = await ctx.deskStore();
  try {
    await store.prepare(profile.name);
  } catch (e) {
    await store.close();
    if (store.engine !== 'file') throw e; // the team store's own error names it (password hidden)
    throw new ConfigError(
      `The thread store ${store.where(profile.name)} cannot be opened for writing (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`,
    );
  }
  let receiver: Receiver;
  try {
    receiver = await startReceiver({
      port,
      host: opts.host,
      store,
      profile: profile.name,
      token,
      tls,
      limits: { maxConnections },
      // Pushed text is untrusted: NDJSON lines escape DEL and C1 controls too (safeJson); --query
      // applies to each record.
      onRecord: (r) => (format === 'table' ? ctx.out(describeRecord(r)) : ctx.emitLine(r)),
      log: (line) => ctx.err(line),
    });
  } catch (e) {
    await store.close();
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new UsageError(`--port ${port} is already in use on ${opts.host}.`, ['Pick another port, or --port 0 for any free one.']);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      throw new UsageError(`--host ${opts.host} is not an address of this machine.`);
    if (code === 'EACCES') throw new UsageError(`--port ${port} needs privileges on ${opts.host}; use a port above 1023.`);
    throw e;
  }
  // SIGTERM or Ctrl-C (handled from before the first line: a service manager may stop it the moment it is up):
  // stop accepting, let requests in progress finish for at most --shutdown-timeout
  // seconds, close the store, exit 0. A second signal quits at once; so does a store that still has not
  // closed a few seconds after the deadline (a disk that stopped answering: nothing it holds was acknowledged).
  let stopping = false;
  const stop = (signal: 'SIGINT' | 'SIGTERM') => {
    if (stopping) ctx.io.exitNow(signal === 'SIGTERM' ? 143 : 130);
    stopping = true;
    const inProgress = receiver.inProgress;
    if (inProgress && format === 'table')
      ctx.err(`Stopping: waiting up to ${graceSeconds} s for ${inProgress} request${inProgress === 1 ? '' : 's'} in progress.`);
    const hard = setTimeout(
      () => {
        ctx.err('pdesk listen: the store did not close in time; exiting anyway (nothing unwritten was acknowledged).');
        ctx.io.exitNow(1);
      },
      graceSeconds * 1000 + 5000,
    );
    void (async () => {
      const { cut } = await receiver.stop({ graceMs: graceSeconds * 1000 }).catch(() => ({ cut: 0 }));
      if (cut)
        ctx.err(
          `pdesk listen: ${cut} request${cut === 1 ? ' was' : 's were'} still in progress after ${graceSeconds} s and cut off, not acknowledged.`,
        );
      await store.close().catch(() => undefined);
      clearTimeout(hard);
      let pending = 2;
      const done = () => {
        if (--pending === 0) ctx.io.exitNow(0);
      };
      ctx.io.stdout.write('', done);
      ctx.io.stderr.write('', done);
    })();
  };
  ctx.io.onSignal('SIGINT', stop);
  ctx.io.onSignal('SIGTERM', stop);

  const where = store.where(profile.name);
  const info = {
    listening: receiver.url,
    practice: `${receiver.url}/practice`,
    portal: `${receiver.url}/portal`,
    engine: store.engine,
    store: where,
  };
  if (format === 'table') {
    ctx.out(`Listening on ${receiver.url} (practice: ${info.practice}, portal: ${info.portal})`);
    ctx.err(
      `${store.engine === 'file' ? 'Thread store' : 'Team store'}: ${where}${token ? '; bearer token required' : ''}. Press Ctrl-C to stop.`,
    );
  } else ctx.out(safeJson(info)); // the first line, where it listens: --query is for the records after it
  if (!isLoopback(opts.host)) {
    if (!token) ctx.err(`pdesk: warning: --insecure: anyone who can reach ${receiver.url} can push into the store.`);
    else if (!tls) ctx.err('pdesk: warning: without --tls-cert the bearer token and every message cross the network unencrypted.');
  }
  ctx.keepAlive = true;
}
