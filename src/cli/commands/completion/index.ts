/**
 * `pdesk completion bash|zsh|fish`: print a shell completion script (stdout, nothing else). The script calls
 * back into `pdesk __complete` (src/cli/completion/complete.ts) for commands, options, profile names and the ids
 * pdesk knows, so it stays in step with the commands without being regenerated.
 */
import { Command } from 'commander';
import { examples } from '../../help.js';
import { verb } from '../../verb.js';

export function completionCommand(): Command {
  return new Command('completion')
    .description('print a shell completion script: bash, zsh or fish (how to install it: the examples below)')
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText(
      'after',
      examples(
        'source <(pdesk completion bash)    # bash: this shell (~/.bashrc: every shell)',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: zsh's ${fpath[1]}, printed as the shell reads it
        'pdesk completion zsh > "${fpath[1]}/_pdesk"',
        'pdesk completion fish > ~/.config/fish/completions/pdesk.fish',
      ),
    )
    .action(verb(() => import('./completion.js')));
}
