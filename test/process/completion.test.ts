/**
 * The completion scripts of `pdesk completion` run by their shells against the built bin/pdesk.js (run
 * `npm run build` first): bash's function with COMP_WORDS, COMP_CWORD, COMP_LINE and COMP_POINT set as bash sets
 * them, reading COMPREPLY; fish's `complete -C`; zsh's function with the completion system's _describe and
 * _files standing in (zsh completes only in an interactive shell). A shell that is not installed is skipped,
 * saying so; the tests never install one.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SCRIPTS } from '../../src/cli/completion/scripts.js';
import { messageRecord, openThreadStore } from '../../src/core/threads/index.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { chatMessage } from '../helpers/chat.js';
import { BIN, tempDir, writeProfiles } from '../helpers/cli.js';

const installed = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

const dir = tempDir('pdesk-completion-');
const bin = tempDir('pdesk-completion-bin-');
const env: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'PDESK_PROFILE') env[k] = v;
Object.assign(env, { PATH: `${bin}:${process.env.PATH}`, PDESK_CONFIG_DIR: dir, NO_COLOR: '1' });

beforeAll(async () => {
  // `pdesk` on the PATH is the built bin/pdesk.js.
  writeFileSync(join(bin, 'pdesk'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'pdesk'), 0o755);
  writeProfiles(dir, [sandboxProfile('http://127.0.0.1:9'), { ...sandboxProfile('http://127.0.0.1:9'), name: 'prod' }]);
  const store = openThreadStore(dir, 'sandbox');
  await store.append([
    messageRecord('C1', 'sent', chatMessage('m-1', 'enc-41', 'a', 'Patient/pat-1', 'PractitionerRole/1001'), '2026-01-01T10:00:00.000Z'),
    messageRecord('C1', 'sent', chatMessage('m-2', 'enc-42', 'b', 'Patient/pat-1', 'PractitionerRole/1001'), '2026-01-02T10:00:00.000Z'),
  ]);
  await store.close();
  const prod = openThreadStore(dir, 'prod');
  await prod.append([messageRecord('C1', 'sent', chatMessage('m-3', 'case:7', 'c', 'Patient/pat-1', 'PractitionerRole/1001'))]);
  await prod.close();
  writeFileSync(join(dir, 'patients.csv'), 'email\n');
});

function shell(name: string, args: string[]) {
  const r = spawnSync(name, args, { env, encoding: 'utf8', timeout: 30_000 });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
}

describe.skipIf(!installed('bash'))(`bash${installed('bash') ? '' : ' (skipped: bash is not installed here)'}`, () => {
  /**
   * COMPREPLY of _pdesk for a line typed up to the cursor, split into COMP_WORDS as bash splits it (at = and :
   * too, COMP_WORDBREAKS); one reply a line.
   */
  function bashComplete(line: string, words: string[]): string[] {
    const file = join(dir, 'pdesk.bash');
    writeFileSync(file, SCRIPTS.bash);
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const program = [
      `source ${q(file)}`,
      `COMP_LINE=${q(line)}; COMP_POINT=${line.length}`,
      `COMP_WORDS=(${words.map(q).join(' ')}); COMP_CWORD=${words.length - 1}`,
      '_pdesk',
      `printf '%s\\n' "\${COMPREPLY[@]}"`,
    ].join('\n');
    return shell('bash', ['--norc', '--noprofile', '-c', program]).split('\n').filter(Boolean);
  }

  it('commands and options', () => {
    expect(bashComplete('pdesk chat sh', ['pdesk', 'chat', 'sh'])).toEqual(['show']);
    expect(bashComplete('pdesk ap', ['pdesk', 'ap'])).toEqual(['api', 'appointment-types', 'appointments']);
    expect(bashComplete('pdesk slots list --sch', ['pdesk', 'slots', 'list', '--sch'])).toEqual(['--schedule']);
  });

  it('--output=… as bash splits it at =: the values replace only what follows the =', () => {
    expect(bashComplete('pdesk --output=', ['pdesk', '--output', '='])).toEqual(['table', 'json', 'ndjson']);
    expect(bashComplete('pdesk --output=nd', ['pdesk', '--output', '=', 'nd'])).toEqual(['ndjson']);
    expect(bashComplete('pdesk --output ', ['pdesk', '--output', ''])).toEqual(['table', 'json', 'ndjson']);
  });

  it('profile names and the thread ids of the selected profile', () => {
    expect(bashComplete('pdesk --profile ', ['pdesk', '--profile', ''])).toEqual(['sandbox', 'prod']);
    expect(bashComplete('pdesk chat show ', ['pdesk', 'chat', 'show', ''])).toEqual(['enc-42', 'enc-41']);
    expect(bashComplete('pdesk --profile prod chat show ', ['pdesk', '--profile', 'prod', 'chat', 'show', ''])).toEqual(['case:7']);
    // Typed up to the colon, bash's word is what follows it: the reply is the rest of the id.
    expect(bashComplete('pdesk --profile prod chat show case:', ['pdesk', '--profile', 'prod', 'chat', 'show', 'case', ':'])).toEqual([
      '7',
    ]);
  });

  it('file names where an option takes a file', () => {
    const typed = join(dir, 'pat');
    expect(bashComplete(`pdesk notifications send --csv ${typed}`, ['pdesk', 'notifications', 'send', '--csv', typed])).toEqual([
      join(dir, 'patients.csv'),
    ]);
  });
});

describe.skipIf(!installed('fish'))(`fish${installed('fish') ? '' : ' (skipped: fish is not installed here)'}`, () => {
  it('complete -C: commands, values with descriptions, --output=, thread ids', () => {
    const file = join(dir, 'pdesk.fish');
    writeFileSync(file, SCRIPTS.fish);
    const out = (line: string) =>
      shell('fish', ['--no-config', '-c', `source ${file}; complete -C '${line}'`])
        .split('\n')
        .filter(Boolean);
    expect(out('pdesk chat sh')).toEqual(["show\ta thread's messages from the local store (no request)"]);
    expect(out('pdesk --output=nd')).toEqual(['--output=ndjson']);
    expect(out('pdesk chat close ')).toEqual(['enc-41\topen, 1 message, 0 unread', 'enc-42\topen, 1 message, 0 unread']);
  });
});

describe.skipIf(!installed('zsh'))(`zsh${installed('zsh') ? '' : ' (skipped: zsh is not installed here)'}`, () => {
  it('_pdesk hands _describe value:description pairs (colons escaped) and asks _files for a file option', () => {
    const file = join(dir, '_pdesk');
    writeFileSync(file, SCRIPTS.zsh);
    const complete = (...words: string[]) =>
      shell('zsh', [
        '-f',
        '-c',
        [
          // The completion system's functions, standing in: what _pdesk hands them is printed.
          'compdef() { :; }',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a zsh parameter expansion, not a template
          '_describe() { print -rl -- "${(@P)4}"; }',
          '_files() { print -r -- FILES; }',
          `source ${file}`,
          `words=(${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length}`,
          '_pdesk',
        ].join('\n'),
      ])
        .split('\n')
        .filter(Boolean);
    expect(complete('pdesk', 'completion', '')).toEqual(['bash', 'zsh', 'fish']);
    expect(complete('pdesk', 'chat', 'show', '')).toEqual(['enc-42:open, 1 message, 0 unread', 'enc-41:open, 1 message, 0 unread']);
    expect(complete('pdesk', 'sandbox', '--break', 'C')[0]).toBe('C1:Send message to the practice system');
    expect(complete('pdesk', '--profile', 'prod', 'chat', 'show', '')).toEqual(['case\\:7:open, 1 message, 0 unread']);
    expect(complete('pdesk', 'check', '--junit', '')).toEqual(['FILES']);
  });
});
