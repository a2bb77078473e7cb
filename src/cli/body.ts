/**
 * `--body <file|->` of the write commands: a complete resource, validated, then sent as it is (cli.md). It
 * excludes every other option of its command, which would otherwise be silently ignored: one check here for
 * every write command, naming each option given with it.
 */
import { UsageError } from '../core/errors.js';
import type { Context } from './context.js';

/**
 * The resource given with `--body` (`value`), read from its file or standard input; undefined when `--body` was
 * not given. `what` names the resource in the error (`--body sends a complete Appointment as is and cannot be
 * combined with --patient, --comment.`), which names the command's other options given on the line (`ctx.given`).
 */
export function readBody(ctx: Context, value: string | undefined, what: string): unknown {
  if (value === undefined) return undefined;
  const others = ctx.given.filter((flag) => flag !== '--body');
  if (others.length) throw new UsageError(`--body sends a complete ${what} as is and cannot be combined with ${others.join(', ')}.`);
  return ctx.readJson(value, '--body');
}
