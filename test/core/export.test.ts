/** Writing a shown resource to a file (src/core/export.ts): redacted, mode 0600, never over an existing file. */
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exportName, writeJsonExport } from '../../src/core/export.js';
import { registerSecret, secretScope } from '../../src/core/redact.js';
import { tempDir } from '../helpers/config.js';

let forget: (() => void) | undefined;
afterEach(() => forget?.());

describe('writeJsonExport', () => {
  it('writes pretty JSON with secrets redacted, mode 0600, and a new name when the first is taken', () => {
    forget = secretScope();
    registerSecret('s3cret-token-value');
    const dir = tempDir();
    const at = new Date('2026-03-01T10:15:30.123Z');
    const value = { resourceType: 'Appointment', id: 'appt-1', comment: 'token s3cret-token-value leaked' };
    const a = writeJsonExport(dir, 'appointment-appt-1', value, at);
    const b = writeJsonExport(dir, 'appointment-appt-1', value, at);
    expect(basename(a)).toBe('pdesk-appointment-appt-1-20260301T101530Z.json');
    expect(basename(b)).toBe('pdesk-appointment-appt-1-20260301T101530Z-2.json');
    const text = readFileSync(a, 'utf8');
    expect(text).not.toContain('s3cret-token-value');
    expect(JSON.parse(text)).toEqual({ ...value, comment: 'token *** leaked' });
    expect(statSync(a).mode & 0o777).toBe(0o600);
  });

  it('keeps only safe characters of a name (server ids may hold anything)', () => {
    const name = exportName('thread-../../etc/passwd x', new Date('2026-03-01T00:00:00Z'));
    expect(name).toBe('pdesk-thread-..-..-etc-passwd-x-20260301T000000Z.json');
    expect(name).not.toContain('/');
    expect(exportName('\u001b[31m', new Date('2026-03-01T00:00:00Z'))).toBe('pdesk-31m-20260301T000000Z.json');
  });
});
