/**
 * `pdesk sandbox`: the embedded practice system + portal (src/sandbox), up until SIGINT or SIGTERM; it saves the
 * profile `sandbox` for the port it listens on (unless --no-profile).
 */
import type { Command } from 'commander';
import { command } from '../../help.js';
import { collectList } from '../../options.js';
import { verb } from '../../verb.js';
import { DEFAULT_SANDBOX_PORT, SANDBOX_PROFILE_NAME } from './defaults.js';

export function sandboxCommand(): Command {
  return command(
    'sandbox',
    'run the embedded practice system (/practice) and portal (/portal) for demos and tests',
    'pdesk sandbox --port 0',
    'pdesk sandbox --port 0 --appointment-api 1.0.0 --approval-flow --no-profile',
    'pdesk sandbox --break A4 --fail M3:503 --latency 200',
  )
    .option('--port <n>', `port to listen on (0 = any free port)`, String(DEFAULT_SANDBOX_PORT))
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--appointment-api <version>', 'appointment API version: 2.0.0 or 1.0.0', '2.0.0')
    .option('--approval-flow', 'practitioners must approve bookings (participant status needs-action)')
    .option('--latency <ms>', 'delay every answer by this many milliseconds')
    .option('--fail-rate <r>', 'share of requests (0..1) answered 503 before any change')
    .option('--push-to <url>', 'portal base URL to push chat replies and demo pushes to (e.g. the URL of `pdesk listen`/portal)')
    .option('--token-env <name>', 'require Authorization: Bearer <token>, the token read from this environment variable')
    .option('--reply-delay <ms>', 'delay of the automatic chat reply to a C1 (default 1500)')
    .option('--profile-out <file>', 'also write the ready profile to this file')
    .option('--no-profile', `do not save the profile "${SANDBOX_PROFILE_NAME}" for this port in the profile store`)
    .option('--break <op>', 'answers of this operation miss a required field, e.g. A4 (repeatable or a comma list)', collectList, [])
    .option('--fail <op:status>', 'answer this operation with this status, e.g. A4:503 (repeatable or a comma list)', collectList)
    .option('--throttle <n>', 'answer every n-th request 429 Too Many Requests with Retry-After: 1, before any change')
    .action(verb(() => import('./sandbox.js')));
}
