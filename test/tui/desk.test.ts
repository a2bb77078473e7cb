/** The status line's error text: server text sanitised, and a credential a server quotes never shown. */
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/core/errors.js';
import { registerSecret } from '../../src/core/redact.js';
import { errorText } from '../../src/tui/desk.js';

describe('errorText', () => {
  it('redacts registered secrets and strips control sequences from every kind of error', () => {
    registerSecret('tui-s3cret-token');
    const outcome = {
      resourceType: 'OperationOutcome' as const,
      issue: [{ severity: 'error', code: 'security', diagnostics: 'token tui-s3cret-token \u001b[31mexpired' }],
    };
    const texts = [
      errorText(new HttpError(401, { method: 'GET', url: 'http://x/Slot', outcome })),
      errorText('plain tui-s3cret-token'),
      errorText(new Error('boom tui-s3cret-token')),
    ];
    for (const t of texts) {
      expect(t).not.toContain('tui-s3cret-token');
      expect(t).toContain('***');
      expect(t).not.toContain('\u001b');
    }
  });
});
