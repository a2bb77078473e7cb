/** What the profile commands share: a profile as a table, the store file's mode, and `--dry-run` refused. */
import { chmodSync, statSync } from 'node:fs';
import { UsageError } from '../../../core/errors.js';
import { sanitize } from '../../../core/sanitize.js';
import type { ProfileInput } from '../../../core/profile/schema.js';
import type { Context } from '../../context.js';

/** `practice.auth.type  bearer` lines for a profile in table mode. */
function flatten(value: unknown, prefix = '', out: Array<[string, string]> = []): Array<[string, string]> {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else out.push([prefix, typeof value === 'string' ? value : JSON.stringify(value)]);
  return out;
}

export function profileTable(profile: ProfileInput, isDefault: boolean, head?: string): string {
  const lines = flatten({ ...profile, default: isDefault });
  const kw = Math.max(...lines.map(([k]) => k.length));
  const body = lines.map(([k, v]) => `${k.padEnd(kw)}  ${sanitize(v)}`).join('\n');
  return head ? `${head}\n${body}` : body;
}

/** The file mode of the store must be 0600 (it may hold a stored token); tighten it if something loosened it. */
export function ensurePrivate(path: string, ctx: Context): void {
  const mode = statSync(path).mode & 0o777;
  if (mode !== 0o600) {
    chmodSync(path, 0o600);
    ctx.log(`profile store ${path} had mode ${mode.toString(8)}; set to 600`);
  }
}

/**
 * `--dry-run` promises that nothing happens. These commands send no request but change the profile store, so
 * under --dry-run they stop with a usage error instead of changing it.
 */
export function refuseDryRun(ctx: Context, verb: string): void {
  if (!ctx.dryRun) return;
  throw new UsageError(
    `--dry-run does not apply to profile ${verb}, which sends no request but changes the profile store; nothing was changed.`,
  );
}
