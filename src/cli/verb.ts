/**
 * How a command line reaches a verb's code (DEVELOPERS.md, "Commands"). A noun's definitions
 * (`src/cli/commands/<noun>/index.ts`) give each verb's action as `verb(() => import('./<verb>.js'))`: when commander
 * has parsed the line, the required options are checked, the Context is made and the global options are checked, and
 * only then is the verb's module loaded and its `run(ctx, options)` called. So a command line evaluates its own
 * verb's module and no other, and a usage error or `--help` loads none.
 */
import type { Command } from 'commander';
import { Context, type Deps, type GlobalOptions } from './context.js';
import { type Needs, checkNeeds, checkRequiredOptions } from './required.js';

/** What a verb's module exports: its code, with everything the command line said as one options object. */
export interface VerbModule<O> {
  run(ctx: Context, options: O): Promise<void> | void;
}

/** The dependencies of a program (set by buildProgram on its root command), and the Context of its run. */
const depsOf = new WeakMap<Command, Deps>();
const contextOf = new WeakMap<Command, Context>();

/** Give the program rooted at `root` its dependencies (buildProgram does this). */
export function setDeps(root: Command, deps: Deps): void {
  depsOf.set(root, deps);
}

/** The Context the program rooted at `root` ran its action with, if it got that far. */
export function contextOfRun(root: Command): Context | undefined {
  return contextOf.get(root);
}

/** The key of a positional argument among the options: `<appointmentId>` → `appointmentId`, `<METHOD>` → `method`. */
export function argumentKey(name: string): string {
  return name === name.toUpperCase() ? name.toLowerCase() : name;
}

/** The command's options given on the line (by the user, not by a default), as long flags in the command's order. */
function givenOptions(cmd: Command): string[] {
  return cmd.options
    .filter((o) => {
      const key = o.attributeName();
      return cmd.getOptionValue(key) !== undefined && cmd.getOptionValueSource(key) !== 'default';
    })
    .map((o) => o.long ?? o.flags);
}

/**
 * The action of a verb whose code `load` imports (given the options, for a verb whose line picks one of two modules);
 * `needs` are the options it requires beyond its `requiredOption`s (src/cli/required.ts). commander calls an action
 * with `(...arguments, options, command)`; the verb's `run` gets `(ctx, {...options, ...arguments by name})`.
 */
export function verb<O>(load: (options: O) => Promise<VerbModule<O>>, ...needs: Needs[]) {
  return async (...raw: unknown[]): Promise<void> => {
    const cmd = raw[raw.length - 1] as Command;
    checkRequiredOptions(cmd);
    const options: Record<string, unknown> = { ...(raw[raw.length - 2] as Record<string, unknown>) };
    cmd.registeredArguments.forEach((a, i) => {
      options[argumentKey(a.name())] = raw[i];
    });
    let root: Command = cmd;
    while (root.parent) root = root.parent;
    const given = givenOptions(cmd);
    const ctx = new Context(cmd.optsWithGlobals() as GlobalOptions, depsOf.get(root), given);
    contextOf.set(root, ctx);
    // Bad global values (--output xml, --limit x, a --query that does not compile) are usage errors before
    // anything is sent, not after.
    void ctx.format;
    void ctx.limit;
    await ctx.compileQuery();
    if (needs.length) checkNeeds(needs, new Set(given), new Set(cmd.options.map((o) => o.long ?? o.flags)));
    const mod = await load(options as O);
    await mod.run(ctx, options as O);
  };
}
