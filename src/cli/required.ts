/**
 * Required options, declared once with their command and checked here before the command runs, every missing one
 * named in one message:
 * - `.requiredOption()` (commander's own): always needed, worded as commander words it ("Required options
 *   '--from <date>' and '--to <date>' not specified."), checked by `checkRequiredOptions` after commander has
 *   rejected unknown options (see `deferRequiredOptions`).
 * - `Needs`, given to `verb()` (src/cli/verb.ts): options needed unless another stands in for them (`--body`, a
 *   complete resource), or only with another (`--csv`), or one of several sets of them (`--slot-json`, or
 *   `--start`, `--end`, `--practitioner` and `--service-category`): "--patient and --comment are required (or give
 *   a complete Appointment with --body)."
 */
import { type Command, CommanderError, type Option } from 'commander';
import { UsageError } from '../core/errors.js';
import { listOf } from './options.js';

/** Options a command needs beyond its `requiredOption`s, by long flag. */
export interface Needs {
  /** Every one of these. */
  all?: readonly string[];
  /** One of these sets, whole; when none is begun the message names the first and, in brackets, the others. */
  oneOf?: readonly (readonly string[])[];
  /** Given any of these, none of the above is needed. */
  unless?: readonly string[];
  /** Needed only when this one is given. */
  with?: string;
  /** The end of the message, after "required": `(or give a complete Appointment with --body)`, `with --csv`. */
  hint: string;
}

/** Options declared with requiredOption, checked by `checkRequiredOptions` instead of commander. */
const required = new WeakSet<Option>();

/**
 * commander checks required options before unknown ones, so a misspelt `--servce-category x` would be reported
 * as a missing `--service-category`. Required options of `cmd` and its subcommands are checked before the command
 * runs instead, after commander has rejected unknown options (with its "did you mean" suggestion).
 */
export function deferRequiredOptions(cmd: Command): void {
  for (const o of cmd.options) {
    if (!o.mandatory) continue;
    o.mandatory = false;
    required.add(o);
  }
  for (const sub of cmd.commands) deferRequiredOptions(sub);
}

/** The `requiredOption`s of `cmd` not given: all of them in one commander error, as commander words it. */
export function checkRequiredOptions(cmd: Command): void {
  const missing = cmd.options.filter((o) => required.has(o) && cmd.getOptionValue(o.attributeName()) === undefined);
  if (!missing.length) return;
  const flags = listOf(missing.map((o) => `'${o.flags}'`));
  throw new CommanderError(
    1,
    'commander.missingMandatoryOptionValue',
    `error: required option${missing.length > 1 ? 's' : ''} ${flags} not specified`,
  );
}

/**
 * The options `needs` asks for that `given` (the long flags on the command line) lacks, each set of `needs` in
 * turn, all named in one UsageError. A flag that `known` (the command's own) does not hold is a mistake in the
 * declaration, said at once.
 */
export function checkNeeds(needs: readonly Needs[], given: ReadonlySet<string>, known: ReadonlySet<string>): void {
  for (const n of needs) {
    const named = [...(n.all ?? []), ...(n.oneOf ?? []).flat(), ...(n.unless ?? []), ...(n.with ? [n.with] : [])];
    const unknown = named.filter((f) => !known.has(f));
    if (unknown.length) throw new Error(`required options: ${unknown.join(', ')} ${unknown.length > 1 ? 'are' : 'is'} no option here`);
    if (n.unless?.some((f) => given.has(f)) || (n.with !== undefined && !given.has(n.with))) continue;
    const missing = (n.all ?? []).filter((f) => !given.has(f));
    const sets = n.oneOf ?? [];
    if (sets.length && !sets.some((s) => s.every((f) => given.has(f)))) {
      const begun = sets.find((s) => s.some((f) => given.has(f)));
      if (begun) missing.push(...begun.filter((f) => !given.has(f)));
      else missing.push(`${listOf(sets[0]!)} (or ${sets.slice(1).map(listOf).join(', or ')})`);
    }
    if (missing.length) throw new UsageError(`${listOf(missing)} ${missing.length > 1 ? 'are' : 'is'} required ${n.hint}.`);
  }
}
