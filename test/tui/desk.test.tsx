/** The desk: the status line's error text (sanitised, secrets redacted) and the task runner. */
import { render } from 'ink-testing-library';
import type React from 'react';
import { useContext } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../src/core/errors.js';
import { registerSecret } from '../../src/core/redact.js';
import { Profile } from '../../src/core/profile/schema.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { TypedConfirmation } from '../../src/tui/components/Confirm.js';
import { type Desk, DeskProvider, type WriteQuestion, errorText, useDesk, useWriteQuestion } from '../../src/tui/desk.js';
import { KeyRouterProvider } from '../../src/tui/keys/router.js';
import { useKeyRouterState } from '../../src/tui/keys/useKeyRouterState.js';
import { stubServer } from '../helpers/http.js';
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

/** What the production test reads of the desk. */
interface Seen {
  desk?: Desk;
  typed?: React.ContextType<typeof TypedConfirmation>;
  question?: WriteQuestion;
}

function Probe({ seen }: { seen: Seen }) {
  seen.desk = useDesk();
  seen.typed = useContext(TypedConfirmation);
  seen.question = useWriteQuestion();
  return null;
}

/** The desk on `profile` with its default client (under the key router), read through `seen`. */
function DeskHost({ profile, seen }: { profile: Profile; seen: Seen }) {
  const { router, version } = useKeyRouterState(() => undefined);
  return (
    <KeyRouterProvider router={router} version={version}>
      <DeskProvider profile={profile}>{() => <Probe seen={seen} />}</DeskProvider>
    </KeyRouterProvider>
  );
}

describe('the desk client on production', () => {
  /** The desk on a production profile whose default client sends to a stub server. */
  async function prodDesk() {
    const s = await stubServer((_q, res) => res.writeHead(201, { 'content-type': 'application/fhir+json' }).end('{"id":"n1"}'));
    const seen: Seen = {};
    const r = render(<DeskHost profile={Profile.parse({ ...sandboxProfile(s.url), environment: 'production' })} seen={seen} />);
    await vi.waitFor(() => expect(seen.desk).toBeDefined());
    return { s, seen, unmount: () => r.unmount() };
  }

  it('a typed confirmation lets one write of the task it starts go; any other write waits for the question', async () => {
    const { s, seen, unmount } = await prodDesk();
    try {
      const body = { resourceType: 'Communication' };
      let done: Promise<unknown> | undefined;
      // Confirmed on a screen: the task's first write goes at once; its second is asked about.
      seen.typed!.confirmed(() => {
        done = seen.desk!.run('two writes', async (signal) => {
          await seen.desk!.client.call('C5', { body, signal });
          await seen.desk!.client.call('C5', { body, signal });
        });
      });
      await vi.waitFor(() => expect(seen.question?.what).toBe('C5 (POST /Communication)'));
      expect(s.received).toHaveLength(1);
      seen.question!.answer(true);
      await done;
      expect(s.received).toHaveLength(2);
      // A task no confirmation started (a key without a review of its own) is asked about; "no" sends nothing.
      const third = seen.desk!.run('a write', (signal) => seen.desk!.client.call('C5', { body, signal }));
      await vi.waitFor(() => expect(seen.question).toBeDefined());
      seen.question!.answer(false);
      expect(await third).toMatchObject({ ok: false });
      expect(s.received).toHaveLength(2);
    } finally {
      unmount();
    }
  });
});
