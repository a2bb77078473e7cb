/**
 * Writing a resource as shown to a file (the TUI's raw view, `w`): pretty JSON, every secret redacted like all
 * output (redact.ts), mode 0600, a new file in the folder given (never overwriting one that exists).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redact } from './redact.js';

/** A file name made of the safe characters of `base`: `pdesk-appointment-appt-1`. */
export function exportName(base: string, now = new Date()): string {
  const safe =
    base
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'resource';
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `pdesk-${safe}-${stamp}.json`;
}

/**
 * Write `value` as pretty JSON, redacted, to a new file in `dir` named after `base`; returns its path. A name
 * taken already gets `-2`, `-3`… (`wx`: an existing file is never written over).
 */
export function writeJsonExport(dir: string, base: string, value: unknown, now = new Date()): string {
  const text = `${redact(JSON.stringify(value, null, 2) ?? 'null')}\n`;
  const name = exportName(base, now);
  for (let n = 1; n < 100; n++) {
    const path = join(dir, n === 1 ? name : name.replace(/\.json$/, `-${n}.json`));
    try {
      writeFileSync(path, text, { mode: 0o600, flag: 'wx' });
      return path;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  throw new Error(`Could not find a free file name for ${name} in ${dir}.`);
}
