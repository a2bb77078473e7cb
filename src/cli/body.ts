/**
 * `--body <file|->` of the write commands: a complete resource, validated, then sent as it is (cli.md). It
 * excludes every other option of its command, which would otherwise be silently ignored: one check here for
 * every write command, naming each option given with it.
 */
import { UsageError } from '../core/errors.js';
import type { Context } from './context.js';

/** The options of the command that were given on the command line, other than `--body`, as flags. */
export function optionsGivenWithBody(ctx: Context): string[] {
  const cmd = ctx.cmd;
  return cmd.options
    .filter((o) => o.attributeName() !== 'body' && cmd.getOptionValueSource(o.attributeName()) === 'cli')
    .map((o) => o.long ?? o.flags);
}

/**
 * The resource given with `--body`, read from its file or standard input; undefined when `--body` was not given.
 * `what` names the resource in the error (`--body sends a complete Appointment as is and cannot be combined with
 * --patient, --comment.`).
 */
export function readBody(ctx: Context, what: string): unknown {
  const value = ctx.cmd.getOptionValue('body') as string | undefined;
  if (value === undefined) return undefined;
  const others = optionsGivenWithBody(ctx);
  if (others.length) throw new UsageError(`--body sends a complete ${what} as is and cannot be combined with ${others.join(', ')}.`);
  return ctx.readJson(value, '--body');
}
