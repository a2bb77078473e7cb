/**
 * Hook tests without a sandbox: a screen's hook rendered under the real key router and desk (status line,
 * task runner), with a client whose `call` answers each operation from canned, interface-shaped resources.
 * What is tested is the hook's state machine — which steps follow which answers, what is refused before
 * anything is sent, where the cursor goes — not HTTP, which the screen tests cover against the real sandbox.
 */
import { useInput } from 'ink';
import { render } from 'ink-testing-library';
import type React from 'react';
import { vi } from 'vitest';
import type { CallOptions, PdeskClient } from '../../src/core/client.js';
import type { OpId } from '../../src/core/ops.js';
import { Profile } from '../../src/core/profile/schema.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { DeskProvider, type DeskStatus, useDeskStatus } from '../../src/tui/desk.js';
import { KeyFeedSync } from '../../src/tui/keys/KeyFeedSync.js';
import { KeyRouterProvider } from '../../src/tui/keys/router.js';
import { useKeyFeed } from '../../src/tui/keys/useKeyFeed.js';
import { useKeyRouterState } from '../../src/tui/keys/useKeyRouterState.js';
import { type TuiSettings, TuiSettingsContext } from '../../src/tui/settings.js';

/**
 * An answer: a body (status 200, or 201 for a write), or a function of the call returning one (or a
 * `{status, body}`), or throwing (an HttpError).
 */
export type Answer = unknown;

export interface FakeClient {
  client: PdeskClient;
  /** Every call, in order. */
  calls: Array<{ op: OpId; o: CallOptions }>;
  /** Calls of one operation. */
  of(op: OpId): CallOptions[];
}

const WRITES = new Set<OpId>(['A6', 'A7', 'C1', 'C3', 'C5', 'M3']);

export function fakeClient(profile: Profile, answers: Partial<Record<OpId, Answer>>): FakeClient {
  const calls: FakeClient['calls'] = [];
  const client = {
    profile,
    readOnly: false,
    refusalOf: () => undefined,
    async call(op: OpId, o: CallOptions = {}) {
      calls.push({ op, o });
      const answer = answers[op];
      if (answer === undefined) throw new Error(`the fake client has no answer for ${op}`);
      const value = typeof answer === 'function' ? await answer(o) : answer;
      if (value && typeof value === 'object' && 'status' in value && 'body' in value)
        return { status: (value as { status: number }).status, headers: {}, body: (value as { body: unknown }).body };
      return { status: WRITES.has(op) ? 201 : 200, headers: {}, body: value };
    },
    async next() {
      throw new Error('the fake client has one page per answer');
    },
    async close() {},
  };
  return { client: client as unknown as PdeskClient, calls, of: (op) => calls.filter((c) => c.op === op).map((c) => c.o) };
}

export const testProfile = (o: Parameters<typeof sandboxProfile>[1] = {}) => Profile.parse(sandboxProfile('http://127.0.0.1:9', o));

export interface HookOptions {
  profile?: Profile;
  answers?: Partial<Record<OpId, Answer>>;
  configDir?: string;
  /** The TUI's settings (the saved profiles for the Systems screen, probe deadlines). */
  options?: TuiSettings;
}

export interface RenderedHook<T> {
  /** The hook's latest result. */
  readonly current: T;
  /** The desk's status (status line message, running task). */
  readonly status: DeskStatus;
  /** The status line's text ('' when empty). */
  text(): string;
  fake: FakeClient;
  /** Wait until the assertion passes (state changes land in a later render). */
  until(assert: () => void, timeout?: number): Promise<void>;
  /** Wait until no request runs. */
  idle(): Promise<void>;
  unmount(): void;
}

interface ProbeProps {
  useHook: () => unknown;
  box: { current?: unknown; status?: DeskStatus };
}

function Probe({ useHook, box }: ProbeProps) {
  box.current = useHook();
  box.status = useDeskStatus();
  return null;
}

function HookHost(
  p: ProbeProps & { profile: Profile; client: PdeskClient; configDir?: string; options?: TuiSettings; children?: React.ReactNode },
) {
  const { router, version } = useKeyRouterState(() => undefined);
  // Keys typed into the fake terminal reach the router, as in the App.
  const feed = useKeyFeed(router);
  useInput(feed);
  return (
    <KeyRouterProvider router={router} version={version}>
      <KeyFeedSync feed={feed} />
      <TuiSettingsContext.Provider value={p.options ?? {}}>
        <DeskProvider profile={p.profile} makeClient={() => p.client} configDir={p.configDir}>
          {() => (
            <>
              <Probe useHook={p.useHook} box={p.box} />
              {p.children}
            </>
          )}
        </DeskProvider>
      </TuiSettingsContext.Provider>
    </KeyRouterProvider>
  );
}

/**
 * A component (a Form, a Confirm) under the key router and the desk, with keys typed into it: `press` sends
 * each key and waits for the frame to settle a little.
 */
export function renderWithDesk(node: React.ReactNode, o: HookOptions = {}) {
  const profile = o.profile ?? testProfile();
  const fake = fakeClient(profile, o.answers ?? {});
  const box: { current?: unknown; status?: DeskStatus } = {};
  const r = render(
    <HookHost useHook={noHook} box={box} profile={profile} client={fake.client} configDir={o.configDir}>
      {node}
    </HookHost>,
  );
  return {
    frame: () => r.lastFrame() ?? '',
    /** The status line's text ('' when empty). */
    text: () => box.status?.status?.text ?? '',
    async press(...keys: string[]) {
      for (const k of keys) {
        r.stdin.write(k);
        await new Promise((res) => setTimeout(res, 10));
      }
    },
    rerender: (next: React.ReactNode) =>
      r.rerender(
        <HookHost useHook={noHook} box={box} profile={profile} client={fake.client} configDir={o.configDir}>
          {next}
        </HookHost>,
      ),
    unmount: () => {
      r.unmount();
      r.cleanup();
    },
  };
}

const noHook = () => undefined;

export function renderHook<T>(useHook: () => T, o: HookOptions = {}): RenderedHook<T> {
  const profile = o.profile ?? testProfile();
  const fake = fakeClient(profile, o.answers ?? {});
  const box: { current?: unknown; status?: DeskStatus } = {};
  const r = render(
    <HookHost useHook={useHook} box={box} profile={profile} client={fake.client} configDir={o.configDir} options={o.options} />,
  );
  const until = (assert: () => void, timeout = 3000) => vi.waitFor(assert, { timeout, interval: 5 }).then(() => undefined);
  return {
    get current() {
      return box.current as T;
    },
    get status() {
      return box.status!;
    },
    text: () => box.status?.status?.text ?? '',
    fake,
    until,
    idle: () =>
      until(() => {
        if (box.status?.busy) throw new Error(`still running: ${box.status.busy.label}`);
      }),
    unmount: () => {
      r.unmount();
      r.cleanup();
    },
  };
}
