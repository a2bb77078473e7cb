/**
 * `pdesk __complete <word>…`, the callback of the shell scripts `pdesk completion bash|zsh|fish` prints (as
 * cobra's and gh's `__complete`): given the words typed after `pdesk`, the last being the one under the cursor
 * (possibly empty), it prints the candidates, one a line, `value<TAB>description`, and a last line `:files`
 * when the shell should offer file names too. The scripts stay small and never go out of step with the
 * commands: commands and options come from the commander tree itself.
 *
 * Values: profile names from the profile store; thread ids from the thread store of the selected profile
 * (`--profile` on the line, else PDESK_PROFILE, else the default); appointment and medication request ids from
 * the last list (completion/cache.ts); fixed sets (`--output`, `--party`, shells, operation ids). Nothing is
 * ever sent, and nothing is printed on failure: a completion never writes an error into the user's shell.
 */
import type { Command, Option } from 'commander';
import { API_METHODS } from '../commands/api/methods.js';
import type { IO } from '../io.js';
import type { DeskStore } from '../../core/store/types.js';
import type { CachedKind } from './cache.js';

export interface Candidate {
  value: string;
  description?: string;
}

export interface Completion {
  candidates: Candidate[];
  /** The shell should offer file names (an option or argument that takes a file). */
  files?: boolean;
}

/** Where the values come from: the folder of the profile store, and the environment. */
export interface Sources {
  env: Readonly<Record<string, string | undefined>>;
}

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

const FHIR_SLOT_STATUSES = ['free', 'busy', 'busy-unavailable', 'busy-tentative', 'entered-in-error'];

type Values = (s: State) => Candidate[] | Promise<Candidate[]>;

/** What the words before the cursor said. */
interface State {
  sources: Sources;
  /** The command the words reached (`chat show`), and how many of its arguments were given. */
  cmd: Command;
  args: number;
  /** `--profile <name>` on the line. */
  profile?: string;
}

const fixed =
  (...values: string[]): Values =>
  () =>
    values.map((value) => ({ value }));

/** Values of options, by long flag; `command path flag` wins over `flag`. */
const OPTION_VALUES: Record<string, Values> = {
  '--profile': (s) => profiles(s),
  '--profiles': (s) => profiles(s),
  '--output': fixed('table', 'json', 'ndjson'),
  '--party': fixed('practice', 'portal'),
  '--appointment-api': fixed('2.0.0', '1.0.0'),
  '--thread': (s) => threads(s, true),
  '--reorder': (s) => cached(s, 'medication-requests'),
  '--break': (s) => opIds(s),
  '--only': (s) => opIds(s),
  'appointments book --status': fixed('booked', 'proposed'),
  'slots list --status': fixed(...FHIR_SLOT_STATUSES),
};

/** Options whose value is a comma list: the candidates complete its last element. */
const COMMA_LISTS = new Set(['--profiles', '--break', '--only']);

/** Values of positional arguments, by command path and argument index. */
const ARGUMENT_VALUES: Record<string, Values[]> = {
  completion: [fixed(...SHELLS)],
  'chat show': [(s) => threads(s, false)],
  'chat close': [(s) => threads(s, true)],
  'chat assign': [(s) => threads(s, true)],
  'chat unassign': [(s) => threads(s, true)],
  'chat mark-read': [(s) => unreadMessages(s)],
  'appointments cancel': [(s) => cached(s, 'appointments')],
  'medications show': [(s) => cached(s, 'medication-requests')],
  'profile show': [(s) => profiles(s)],
  'profile use': [(s) => profiles(s)],
  'profile remove': [(s) => profiles(s)],
  api: [fixed(...API_METHODS)],
};

/** `chat show` for the command `show` under `chat` (the root is not named). */
function pathOf(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The command and its ancestors, nearest first (global options are the root's). */
function chain(cmd: Command): Command[] {
  const out: Command[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) out.push(c);
  return out;
}

function findOption(cmd: Command, flag: string): Option | undefined {
  for (const c of chain(cmd)) {
    const o = c.options.find((x) => x.long === flag || x.short === flag);
    if (o) return o;
  }
  return undefined;
}

function subcommand(cmd: Command, word: string): Command | undefined {
  return cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
}

/** `'name'` or `"name"` as typed: the value without its quotes. */
const unquote = (w: string) => (/^(['"]).*\1$/.test(w) ? w.slice(1, -1) : w);

/** The candidates for the last of `words` (the words after `pdesk`). */
export async function complete(program: Command, words: readonly string[], sources: Sources): Promise<Completion> {
  const current = words.length ? words[words.length - 1]! : '';
  const state: State = { sources, cmd: program, args: 0 };
  let pending: Option | undefined;
  let operandsOnly = false;
  for (const w of words.slice(0, -1)) {
    if (pending) {
      if (pending.long === '--profile') state.profile = unquote(w);
      pending = undefined;
    } else if (!operandsOnly && w === '--') operandsOnly = true;
    else if (!operandsOnly && w.startsWith('-') && w.length > 1) {
      const eq = w.indexOf('=');
      const flag = eq > 0 && w.startsWith('--') ? w.slice(0, eq) : w;
      const o = findOption(state.cmd, flag);
      if (eq > 0 && flag === '--profile') state.profile = unquote(w.slice(eq + 1));
      // An option with a required value takes the next word; one with an optional value (`tui --listen [port]`)
      // is taken to stand alone.
      else if (o?.required && eq < 0) pending = o;
    } else {
      const sub = state.args === 0 && !operandsOnly ? subcommand(state.cmd, w) : undefined;
      if (sub) state.cmd = sub;
      else state.args++;
    }
  }

  if (pending) return optionValues(state, pending, current, '');
  if (!operandsOnly && current.startsWith('--') && current.includes('=')) {
    const flag = current.slice(0, current.indexOf('='));
    const o = findOption(state.cmd, flag);
    return o?.required || o?.optional ? optionValues(state, o, current.slice(flag.length + 1), `${flag}=`) : { candidates: [] };
  }
  if (!operandsOnly && current.startsWith('-')) return { candidates: matching(options(state.cmd), current) };
  const subs = state.args === 0 ? visibleCommands(state.cmd) : [];
  if (subs.length) return { candidates: matching(subs, current) };
  return argumentValues(state, current);
}

function visibleCommands(cmd: Command): Candidate[] {
  return cmd.commands
    .filter((c) => !(c as Command & { _hidden?: boolean })._hidden)
    .map((c) => ({ value: c.name(), description: c.description() }));
}

/** Long options of the command and its ancestors (the global ones), then --help; --version only at the top. */
function options(cmd: Command): Candidate[] {
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const c of chain(cmd))
    for (const o of c.options) {
      if (o.hidden || !o.long || seen.has(o.long) || (o.long === '--version' && c !== cmd)) continue;
      seen.add(o.long);
      out.push({ value: o.long, description: o.description });
    }
  out.push({ value: '--help', description: 'show help for this command' });
  return out;
}

/** Candidates that start with what is typed. */
function matching(candidates: readonly Candidate[], typed: string): Candidate[] {
  return candidates.filter((c) => c.value.startsWith(typed));
}

/** An option's value: known values, files for an option that takes a file, else nothing. */
async function optionValues(state: State, o: Option, typed: string, prefix: string): Promise<Completion> {
  const flag = o.long ?? o.short ?? '';
  const values = OPTION_VALUES[`${pathOf(state.cmd)} ${flag}`] ?? OPTION_VALUES[flag];
  if (!values) return { candidates: [], files: /<file/.test(o.flags) };
  // A comma list (`--profiles a,b`) completes its last element, keeping the ones before it.
  const comma = COMMA_LISTS.has(flag) ? typed.lastIndexOf(',') + 1 : 0;
  const head = `${prefix}${typed.slice(0, comma)}`;
  const candidates = matching(await values(state), typed.slice(comma)).map((c) => ({ ...c, value: `${head}${c.value}` }));
  return { candidates };
}

async function argumentValues(state: State, typed: string): Promise<Completion> {
  const values = ARGUMENT_VALUES[pathOf(state.cmd)]?.[state.args];
  if (values) return { candidates: matching(await values(state), typed) };
  return { candidates: [], files: state.cmd.registeredArguments[state.args]?.name() === 'file' };
}

// ---------------------------------------------------------------- what pdesk knows

/** The profile store of the environment's config folder (read, never written; conf is not loaded). */
async function profileStore(s: State) {
  const { configDir, openProfileStore } = await import('../../profiles/store.js');
  return openProfileStore(configDir(s.sources.env));
}

async function profiles(s: State): Promise<Candidate[]> {
  const store = await profileStore(s);
  return store.list().map((p) => ({
    value: p.name,
    description: [p.isDefault ? 'default' : '', typeof p.profile.environment === 'string' ? p.profile.environment : '']
      .filter(Boolean)
      .join(', '),
  }));
}

/** The profile whose stores are read: `--profile` on the line, else PDESK_PROFILE, else the default. */
async function selectedProfile(s: State): Promise<{ dir: string; name: string } | undefined> {
  const store = await profileStore(s);
  const name = s.profile ?? s.sources.env.PDESK_PROFILE ?? store.defaultName();
  return name ? { dir: store.dir, name } : undefined;
}

/**
 * Run `fn` on the desk store of the profile selected on the line (the team store when one is configured, with a
 * short connect timeout and no migration: completion waits for nobody), closed after.
 */
async function withDesk<T>(s: State, fn: (store: DeskStore, profile: string) => Promise<T>): Promise<T | undefined> {
  const selected = await selectedProfile(s);
  if (!selected) return undefined;
  const { readSettings } = await import('../../core/settings.js');
  const { selectStore } = await import('../../core/store/select.js');
  const selection = selectStore(s.sources.env, readSettings(selected.dir), selected.dir);
  let store: DeskStore;
  if (selection.engine === 'file') {
    const { openFileStore } = await import('../../core/store/file/index.js');
    store = openFileStore(selected.dir, { onWarning: () => undefined });
  } else {
    const { openPgStore } = await import('../../core/store/pg/index.js');
    store = openPgStore(selection.url, { migrate: false, max: 1, connectTimeoutS: 2 });
  }
  try {
    return await fn(store, selected.name);
  } finally {
    await store.close();
  }
}

/** Thread ids, newest first; `openOnly` for the commands that write to a thread. */
async function threads(s: State, openOnly: boolean): Promise<Candidate[]> {
  const list = (await withDesk(s, (store, profile) => store.listThreads(profile))) ?? [];
  return list
    .filter((t) => !openOnly || t.status === 'open')
    .map((t) => ({
      value: t.thread,
      description: `${t.status}, ${t.messages} message${t.messages === 1 ? '' : 's'}, ${t.unread} unread${t.owner ? `, ${t.owner}'s` : ''}`,
    }));
}

/** The most threads whose unread messages `chat mark-read` offers (a read each). */
const UNREAD_THREADS = 50;

/** Ids of unread messages, for `chat mark-read`. */
async function unreadMessages(s: State): Promise<Candidate[]> {
  const out: Candidate[] = [];
  await withDesk(s, async (store, profile) => {
    const list = (await store.listThreads(profile)).filter((t) => t.unread > 0).slice(0, UNREAD_THREADS);
    for (const t of list)
      for (const m of (await store.messages(profile, t.thread)) ?? [])
        if (m.unread) out.push({ value: m.id, description: `unread, thread ${t.thread}` });
  });
  return out;
}

async function cached(s: State, kind: CachedKind): Promise<Candidate[]> {
  const selected = await selectedProfile(s);
  if (!selected) return [];
  const { readCachedIds } = await import('./cache.js');
  return readCachedIds(selected.dir, selected.name, kind).map((e) => ({ value: e.id, description: e.description }));
}

async function opIds(_s: State): Promise<Candidate[]> {
  const { OPS, OP_IDS } = await import('../../core/ops.js');
  return OP_IDS.map((id) => ({ value: id, description: OPS[id].title }));
}

// ---------------------------------------------------------------- the callback

/** One line per candidate: no tabs, newlines or control characters in a value (dropped) or a description. */
export function renderCompletion(c: Completion): string {
  const bad = /[\u0000-\u001f\u007f-\u009f]/;
  const lines: string[] = [];
  for (const { value, description } of c.candidates) {
    if (!value || bad.test(value)) continue;
    const d = description?.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
    lines.push(d ? `${value}\t${d}` : value);
  }
  if (c.files) lines.push(':files');
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** `pdesk __complete <word>…`: print the candidates on `io`'s stdout; on any failure print nothing. */
export async function runComplete(program: Command, words: readonly string[], io: IO): Promise<void> {
  let text = '';
  try {
    text = renderCompletion(await complete(program, words, { env: io.env }));
  } catch {
    text = '';
  }
  io.stdout.write(text);
}
