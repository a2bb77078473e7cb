/**
 * TUI test harness: the whole App (ink-testing-library) against a real sandbox on port 0, with a fixed
 * terminal size. `press` sends keys one by one and lets Ink render in between; `waitFor` polls the last frame.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { useInput } from 'ink';
import type React from 'react';
import { vi } from 'vitest';
import { replyMessage } from '../../src/core/api/chat.js';
import { PdeskClient } from '../../src/core/client.js';
import { openThreadStore } from '../../src/core/threads/index.js';
import { startReceiver } from '../../src/listen/receiver.js';
import { Profile, type ProfileInput } from '../../src/core/profile/schema.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/server.js';
import { Root, type RootProps } from '../../src/tui/app.js';
import { KeyFeedSync } from '../../src/tui/keys/KeyFeedSync.js';
import { KeyRouterProvider } from '../../src/tui/keys/router.js';
import { useKeyFeed } from '../../src/tui/keys/useKeyFeed.js';
import { useKeyRouterState } from '../../src/tui/keys/useKeyRouterState.js';
import type { ScreenId } from '../../src/tui/screens/types.js';

export const KEY = {
  up: '\u001B[A',
  down: '\u001B[B',
  right: '\u001B[C',
  left: '\u001B[D',
  enter: '\r',
  esc: '\u001B',
  tab: '\t',
  backspace: '\u007F',
  pgdn: '\u001B[6~',
  pgup: '\u001B[5~',
  home: '\u001B[H',
  end: '\u001B[F',
  ctrlC: '\u0003',
} as const;

export const tick = (ms = 15) => new Promise((r) => setTimeout(r, ms));

export interface Desk {
  sandbox: Sandbox;
  profile: Profile;
  frame(): string;
  /** Send keys one at a time (a string of several printable characters is typed as one paste unless split). */
  press(...keys: string[]): Promise<void>;
  /** Type text character by character. */
  type(text: string): Promise<void>;
  /** Keys read one after another before the screen could draw in between (a fast typist, a loaded machine). */
  burst(...keys: string[]): void;
  waitFor(text: string | RegExp, timeout?: number): Promise<string>;
  /** Wait until the text is no longer on screen. */
  waitGone(text: string, timeout?: number): Promise<string>;
  quitCalls: number;
  /** The exit code of each quit: 0 for q, 130 for Ctrl-C. */
  quitCodes: number[];
  close(): Promise<void>;
}

export interface OpenOptions {
  sandbox?: SandboxOptions;
  size?: { columns: number; rows: number };
  screen?: ScreenId;
  root?: Partial<RootProps>;
  /** Settings over the sandbox's profile (`readOnly`, `environment`), or a function of the sandbox's URL giving them. */
  profile?: Partial<ProfileInput> | ((url: string) => Partial<ProfileInput>);
}

export async function openDesk(o: OpenOptions = {}): Promise<Desk> {
  const sandbox = await startSandbox({ port: 0, log: () => undefined, ...o.sandbox });
  const profile = Profile.parse({
    ...sandboxProfile(sandbox.url, { appointmentApi: o.sandbox?.appointmentApi, approvalFlow: o.sandbox?.approvalFlow }),
    ...(typeof o.profile === 'function' ? o.profile(sandbox.url) : o.profile),
  });
  const state = { quitCalls: 0, quitCodes: [] as number[] };
  const r = render(
    <Root
      profile={profile}
      size={o.size ?? { columns: 100, rows: 30 }}
      initialScreen={o.screen}
      onQuit={(code) => {
        state.quitCalls++;
        state.quitCodes.push(code);
      }}
      // The Systems screen lists the desk's own profile only, unless a test gives the saved ones.
      listProfiles={async () => []}
      loadProfile={async (name) => {
        if (name === 'other') return Profile.parse(sandboxProfile(sandbox.url, { name: 'other' }));
        const { ConfigError } = await import('../../src/core/errors.js');
        throw new ConfigError(`There is no profile named "${name}".`);
      }}
      {...o.root}
    />,
  );
  const frame = () => r.lastFrame() ?? '';
  const desk: Desk = {
    sandbox,
    profile,
    frame,
    async press(...keys) {
      for (const k of keys) {
        r.stdin.write(k);
        await tick(k === KEY.esc ? 25 : 10);
      }
    },
    burst(...keys) {
      for (const k of keys) r.stdin.write(k);
    },
    async type(text) {
      for (const ch of text) {
        r.stdin.write(ch);
        await tick(5);
      }
    },
    async waitFor(text, timeout = 5000) {
      await vi.waitFor(
        () => {
          const f = frame();
          if (typeof text === 'string' ? !f.includes(text) : !text.test(f)) throw new Error(`waiting for ${String(text)} in:\n${f}`);
        },
        { timeout, interval: 10 },
      );
      return frame();
    },
    async waitGone(text, timeout = 5000) {
      await vi.waitFor(
        () => {
          if (frame().includes(text)) throw new Error(`waiting for ${text} to go in:\n${frame()}`);
        },
        { timeout, interval: 10 },
      );
      return frame();
    },
    get quitCalls() {
      return state.quitCalls;
    },
    get quitCodes() {
      return state.quitCodes;
    },
    async close() {
      r.unmount();
      r.cleanup();
      await sandbox.close();
    },
  };
  return desk;
}

/** Slots screen: from the category list to the slot list of Dr. Anna Berg (schedule 11), tomorrow to +6d. */
export async function toSlots(d: Desk) {
  await d.waitFor('gp — General practice');
  await d.press(KEY.enter); // gp (first category)
  await d.waitFor('Appointment type (A1)');
  await d.waitFor('Consultation');
  await d.press(KEY.enter); // consult
  await d.waitFor('Practitioner and schedule');
  await d.press('j', KEY.enter); // Dr. Anna Berg · schedule 11
  await d.waitFor('Date range');
  // From tomorrow: slots of today may have begun already, and those cannot be booked.
  await d.press('\u0015');
  await d.type('tomorrow');
  await d.press(KEY.enter, KEY.enter); // tomorrow, +6d
  await d.waitFor('Slots (times in UTC)');
}

/**
 * The Chat screen (`openDesk` with `o`) with a push receiver writing the thread store of a temporary config folder,
 * and the practice system's answer in enc-100 pushed to it as the practice system would. Each thing opened is
 * handed to `closeLater`, to close after the test.
 */
export async function openChatWithAnswer(o: OpenOptions, closeLater: (close: () => Promise<void> | void) => void): Promise<Desk> {
  const dir = mkdtempSync(join(tmpdir(), 'pdesk-tui-chat-'));
  closeLater(() => rmSync(dir, { recursive: true, force: true }));
  const store = openThreadStore(dir, 'sandbox');
  closeLater(() => store.close());
  const receiver = await startReceiver({ port: 0, store, log: () => undefined });
  closeLater(() => receiver.close());
  const d = await openDesk({ ...o, screen: 'chat', root: { configDir: dir, receiver: { url: receiver.url }, ...o.root } });
  closeLater(() => d.close());
  const pusher = new PdeskClient(Profile.parse(sandboxProfile(receiver.url, { name: 'pusher' })));
  closeLater(() => pusher.close());
  await replyMessage(pusher, d.sandbox.state.messages.get('msg-100-2')!);
  await d.waitFor(/enc-100\s+open\s+1\s+1\s/);
  return d;
}

/** Lines of a frame (no trailing newline). */
export const lines = (f: string) => f.split('\n');

/** Render a component alone under the key router (no desk): for list components and benches. */
export function renderBare(node: React.ReactNode) {
  const r = render(<BareHost>{node}</BareHost>);
  return {
    frame: () => r.lastFrame() ?? '',
    stdin: r.stdin,
    async press(...keys: string[]) {
      for (const k of keys) {
        r.stdin.write(k);
        await tick(5);
      }
    },
    unmount: () => {
      r.unmount();
      r.cleanup();
    },
  };
}

function BareHost({ children }: { children: React.ReactNode }) {
  const { router, version } = useKeyRouterState(() => undefined);
  const feed = useKeyFeed(router);
  useInput(feed);
  return (
    <KeyRouterProvider router={router} version={version}>
      <KeyFeedSync feed={feed} />
      {children}
    </KeyRouterProvider>
  );
}
