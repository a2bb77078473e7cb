/**
 * The one decision before a write on a production profile (cli.md "Live systems"): on a terminal (standard input
 * and output both), the operator types the profile's name; without a terminal the command needs `--yes`. A wrong
 * answer, end of input or a missing `--yes` is a usage error (exit 2) and nothing is sent. Asked once per profile
 * and run: a command that sends several writes (check --write, a bulk send) asks before the first.
 *
 * The client calls it before every write it sends (ClientOptions.beforeWrite, set by the Context), so no write
 * command can forget it; a command that knows more than one request does (a bulk send: the row count and the
 * portal) asks first, in its own words, and the client's later calls find the profile confirmed.
 */
import { type Profile, isProduction } from '../core/profile/schema.js';
import type { IO } from './io.js';

/** What the decision needs of a run: its IO, `--yes`, and the profiles confirmed so far. */
export interface ConfirmScope {
  io: IO;
  yes: boolean;
  confirmed: Set<string>;
}

/**
 * Confirm a write on `profile` (nothing happens unless it is a production profile, or it was confirmed in this
 * run already): `what` is what will be sent (`A6 (POST /Appointment)`, `120 notifications (C5)`), `target` where.
 */
export async function confirmWrite(run: ConfirmScope, profile: Profile, what: string, target: string): Promise<void> {
  if (!isProduction(profile) || run.confirmed.has(profile.name)) return;
  const { UsageError } = await import('../core/errors.js');
  const { sanitize } = await import('../core/sanitize.js');
  if (run.yes) {
    run.confirmed.add(profile.name);
    return;
  }
  const io = run.io;
  if (!io.stdinIsTTY || !io.stdoutIsTTY)
    throw new UsageError(
      `Profile "${profile.name}" is a production profile: sending ${what} needs --yes when there is no terminal to confirm on; nothing was sent.`,
    );
  const answer = await askLine(io, sanitize(`Type the profile name to send ${what} to ${target} (production): `, true));
  if (answer === undefined) throw new UsageError(`No answer was given to confirm a write on production; nothing was sent.`);
  if (answer.trim() !== profile.name) throw new UsageError(`The answer was not the profile's name "${profile.name}"; nothing was sent.`);
  run.confirmed.add(profile.name);
}

/** One line from the command's standard input after a prompt on stderr; undefined at end of input. */
async function askLine(io: IO, prompt: string): Promise<string | undefined> {
  const { createInterface } = await import('node:readline');
  const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: io.stdinIsTTY });
  try {
    return await new Promise<string | undefined>((resolve) => {
      let answered = false;
      rl.once('line', (line) => {
        answered = true;
        resolve(line);
      });
      rl.once('close', () => {
        if (!answered) resolve(undefined);
      });
      rl.setPrompt(prompt);
      rl.prompt();
    });
  } finally {
    rl.close();
  }
}
