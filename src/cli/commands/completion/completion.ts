/** `pdesk completion bash|zsh|fish`: the shell's completion script on stdout, nothing else. */
import { SCRIPTS, SHELLS } from '../../completion/scripts.js';
import type { Context } from '../../context.js';
import { oneOf } from '../../options.js';

export interface CompletionOptions {
  shell: string;
}

export function run(ctx: Context, opts: CompletionOptions): void {
  ctx.io.stdout.write(SCRIPTS[oneOf(opts.shell, SHELLS, '<shell>')]);
}
