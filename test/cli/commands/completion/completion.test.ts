/**
 * `pdesk completion bash|zsh|fish` in-process: the script alone on stdout, a bad shell exits 2; and each script is
 * valid for its shell (`bash -n`, `zsh -n`, `fish -n`) where that shell is installed. Running the scripts'
 * functions against the built pdesk is in test/process/completion.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCRIPTS, SHELLS } from '../../../../src/cli/completion/scripts.js';
import { run, tempDir } from '../../../helpers/run.js';

/** Whether `shell` is on the PATH (the tests never install one). */
const installed = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

describe('pdesk completion', () => {
  it.each(SHELLS)('%s: the script on stdout, nothing else; it registers pdesk and calls back pdesk __complete', async (shell) => {
    const r = await run(['completion', shell]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(SCRIPTS[shell]);
    expect(r.stdout).toContain('__complete');
    expect(r.stdout).toMatch({ bash: /^complete -F _pdesk pdesk$/m, zsh: /^#compdef pdesk$/m, fish: /^complete -c pdesk /m }[shell]);
  });

  it('another shell, or none, exits 2 naming it', async () => {
    const r = await run(['completion', 'powershell']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe('pdesk: <shell> must be one of bash, zsh, fish, not "powershell".');
    const none = await run(['completion']);
    expect(none.code).toBe(2);
    expect(none.stderr.split('\n')[0]).toBe("pdesk: Missing required argument 'shell'.");
  });

  for (const shell of SHELLS) {
    const has = installed(shell);
    it.skipIf(!has)(`${shell} -n accepts the script${has ? '' : ` (skipped: ${shell} is not installed here)`}`, () => {
      const file = join(tempDir('pdesk-completion-'), `pdesk.${shell}`);
      writeFileSync(file, SCRIPTS[shell]);
      const r = spawnSync(shell, ['-n', file], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      // A script with a syntax error is refused: the check can fail.
      writeFileSync(file, `${SCRIPTS[shell]}\n${shell === 'fish' ? 'end' : 'fi'}\n`);
      expect(spawnSync(shell, ['-n', file]).status).not.toBe(0);
    });
  }
});
