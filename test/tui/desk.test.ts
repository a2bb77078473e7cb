/** The desk: the status line's error text (sanitised, secrets redacted) and the task runner. */
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/core/errors.js';
import { registerSecret } from '../../src/core/redact.js';
import { errorText, useDesk } from '../../src/tui/desk.js';
import { renderHook } from './hook-harness.js';

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

describe('desk.run', () => {
  it('a quiet run (a refresh after a refusal) keeps the status line; any other run clears it when it starts', async () => {
    const h = renderHook(() => useDesk());
    try {
      h.current.error('HTTP 409 Conflict · the slot is taken');
      await h.until(() => expect(h.text()).toBe('HTTP 409 Conflict · the slot is taken'));
      let release!: () => void;
      const pending = h.current.run('Refreshing', () => new Promise<void>((r) => (release = r)), { quiet: true });
      await h.until(() => expect(h.status.busy?.label).toBe('Refreshing'));
      expect(h.text()).toBe('HTTP 409 Conflict · the slot is taken');
      release();
      await pending;
      await h.idle();
      expect(h.text()).toBe('HTTP 409 Conflict · the slot is taken');
      await h.current.run('Loading', async () => 1);
      await h.until(() => expect(h.text()).toBe(''));
    } finally {
      h.unmount();
    }
  });
});
