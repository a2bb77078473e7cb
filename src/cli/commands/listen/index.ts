/**
 * `pdesk listen`: receive pushes as a stand-in party (decisions.md §8): C1, C2 under /practice and C3, C4, C5
 * under /portal, each written durably to the profile's thread store before it is acknowledged. Prints the
 * bound URL as the first line, then one line per received record (NDJSON with --json) until SIGTERM or Ctrl-C,
 * which let requests in progress finish for at most --shutdown-timeout seconds. Made to run as a service:
 * HTTPS (--tls-cert, --tls-key), GET /healthz, a connection limit, and no open port beyond this machine
 * without a token unless --insecure.
 */
import { Command } from 'commander';
import { examples } from '../../help.js';
import { verb } from '../../verb.js';

export function listenCommand(): Command {
  return new Command('listen')
    .description(
      "receive pushes (C1, C2 at /practice; C3, C4, C5 at /portal) into the profile's thread store, or the team store, until SIGTERM or Ctrl-C",
    )
    .option('--port <n>', 'port to listen on (0 = any free port)', '4020')
    .option('--host <host>', 'address to listen on; beyond loopback it needs --token-env (or --insecure)', '127.0.0.1')
    .option('--token-env <NAME>', 'require Authorization: Bearer <the value of environment variable NAME>')
    .option('--tls-cert <file>', 'serve HTTPS with this PEM certificate (chain); needs --tls-key')
    .option('--tls-key <file>', 'the PEM private key of --tls-cert')
    .option('--insecure', 'allow a --host beyond loopback without --token-env')
    .option('--max-connections <n>', 'connections open at once; more are closed at once', '100')
    .option('--shutdown-timeout <seconds>', 'on SIGTERM or Ctrl-C, how long requests in progress may take to finish', '10')
    .addHelpText(
      'after',
      examples(
        'pdesk listen                  # http://127.0.0.1:4020, this machine only',
        'pdesk listen --host 0.0.0.0 --token-env PDESK_LISTEN_TOKEN \\',
        '  --tls-cert /etc/pdesk/listen.crt --tls-key /etc/pdesk/listen.key',
        'pdesk sandbox --port 0 --push-to http://127.0.0.1:4020/portal',
        'curl -s http://127.0.0.1:4020/healthz   # 200, or 503: cannot take pushes',
      ),
    )
    .action(verb(() => import('./listen.js')));
}
