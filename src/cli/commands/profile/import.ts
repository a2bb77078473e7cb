/** `pdesk profile import`: add or replace a profile from a JSON file (or standard input). */
import { ConfigError } from '../../../core/errors.js';
import { describeJsonProblem, readJson } from '../../../core/json.js';
import { redactProfile } from '../../../profiles/redact.js';
import { type Profile, validateProfile } from '../../../core/profile/schema.js';
import type { Context } from '../../context.js';
import { ensurePrivate, profileTable, refuseDryRun } from './shared.js';

export interface ImportOptions {
  file: string;
  name?: string;
  default?: boolean;
}

export async function run(ctx: Context, opts: ImportOptions): Promise<void> {
  const { file } = opts;
  refuseDryRun(ctx, 'import');
  const store = await ctx.store();
  // A store file that is not a profile store stops the import before the file is read: nothing is written.
  store.read();
  const source = file === '-' ? 'standard input' : file;
  // Bounded, and an error names line and column without quoting the file (src/core/json.ts).
  const read = readJson(ctx.readText(file, '<file>'));
  if (!read.ok)
    throw new ConfigError(`The profile in ${source} is not valid JSON.`, [
      `${read.problem.kind === 'syntax' ? '' : `at ${read.problem.path}: `}${describeJsonProblem(read.problem)}`,
    ]);
  const raw = read.value;
  const input = raw && typeof raw === 'object' && !Array.isArray(raw) && opts.name !== undefined ? { ...raw, name: opts.name } : raw;
  const profile: Profile = validateProfile(input, source);
  await store.save(profile, !!opts.default);
  ensurePrivate(store.path, ctx);
  const isDefault = store.defaultName() === profile.name;
  const shown = redactProfile(profile);
  const table = profileTable(shown, isDefault, `Saved profile "${profile.name}"${isDefault ? ' (default)' : ''} in ${store.path}:`);
  ctx.emitOne({ saved: profile.name, default: isDefault, store: store.path, profile: shown }, () => table);
}
