/**
 * `pdesk listen` — receive pushes as a stand-in party (decisions.md §8): C1, C2 under /practice and C3, C4, C5
 * under /portal, each written durably to the profile's thread store before it is acknowledged. Prints the
 * bound URL as the first line, then one line per received record (NDJSON with --json) until Ctrl-C.
 */
import { Command } from 'commander';
import { action } from '../context.js';
import { safeJson } from '../output.js';
import { examples } from '../help.js';

interface ListenOptions {
  port: string;
  host: string;
  tokenEnv?: string;
}

export function listenCommand(): Command {
  return new Command('listen')
    .description("receive pushes (C1, C2 at /practice; C3, C4, C5 at /portal) into the profile's thread store until Ctrl-C")
    .addHelpText(
      'after',
      examples(
        'pdesk listen --port 4020',
        'pdesk listen --port 4020 --token-env LISTEN_TOKEN',
        'pdesk sandbox --port 0 --push-to http://127.0.0.1:4020/portal',
      ),
    )
    .option('--port <n>', 'port to listen on (0 = any free port)', '4020')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--token-env <NAME>', 'require Authorization: Bearer <the value of environment variable NAME>')
    .action(
      action(async (ctx, opts: ListenOptions) => {
        const { positiveInt } = await import('../options.js');
        const { ConfigError, UsageError } = await import('../../core/errors.js');
        const port = positiveInt(opts.port, '--port', { allowZero: true });
        if (port > 65535) throw new UsageError(`--port must be at most 65535, not ${port}.`);
        if (!opts.host.trim()) throw new UsageError('--host must not be empty.');
        let token: string | undefined;
        if (opts.tokenEnv !== undefined) {
          const { registerSecret } = await import('../../core/redact.js');
          token = ctx.io.env[opts.tokenEnv];
          if (!token)
            throw new ConfigError(`The environment variable ${opts.tokenEnv} (--token-env) is not set or empty.`, [
              `Set it, e.g. export ${opts.tokenEnv}=…`,
            ]);
          registerSecret(token);
        }
        const format = ctx.format;
        const profile = await ctx.profile();
        const { openThreadStore, describeRecord } = await import('../../core/threads/index.js');
        const store = openThreadStore(await ctx.configDir(), profile.name, { onWarning: (w) => ctx.err(`pdesk: warning: ${w}`) });
        const { startReceiver } = await import('../../listen/receiver.js');
        try {
          await store.prepare();
        } catch (e) {
          await store.close();
          throw new ConfigError(
            `The thread store ${store.path} cannot be opened for writing (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`,
          );
        }
        let receiver: import('../../listen/receiver.js').Receiver;
        try {
          receiver = await startReceiver({
            port,
            host: opts.host,
            store,
            token,
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
        const info = { listening: receiver.url, practice: `${receiver.url}/practice`, portal: `${receiver.url}/portal`, store: store.path };
        if (format === 'table') {
          ctx.out(`Listening on ${receiver.url} (practice: ${info.practice}, portal: ${info.portal})`);
          ctx.err(`Thread store: ${store.path}${token ? '; bearer token required' : ''}. Press Ctrl-C to stop.`);
        } else ctx.out(safeJson(info)); // the first line, where it listens: --query is for the records after it
        ctx.keepAlive = true;

        // Ctrl-C: stop accepting, close the store, exit 0; a second Ctrl-C quits at once.
        let stopping = false;
        const stop = () => {
          if (stopping) ctx.io.exitNow(130);
          stopping = true;
          void (async () => {
            await receiver.close().catch(() => undefined);
            await store.close().catch(() => undefined);
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
      }),
    );
}
