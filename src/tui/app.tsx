/**
 * The TUI root: the key router, the desk (profile, client, status) or the no-profile welcome, and the App's
 * layout — header, tabs, the screen (or what covers it: a write's question, the help, the inspector), status
 * line, hints or palette. What the frame does lives in shell/: navigation (useNavigation), the palette
 * (usePalette), the help (useHelp), the global keys (useGlobalKeys), and a component per line. The frame is
 * always `rows − 1` lines: Ink clears the whole terminal on every frame when it is taller (DEVELOPERS.md,
 * "Stack notes").
 */
import { Box, useApp, useInput, useStdin } from 'ink';
import { useCallback, useMemo, useRef, useState } from 'react';
import type { ClientOptions, PdeskClient } from '../core/client.js';
import type { Profile } from '../core/profile/schema.js';
import type { DeskStore } from '../core/store/types.js';
import { DeskProvider, DeskScreen, useDesk, useDeskStatus, useWriteQuestion } from './desk.js';
import { InspectProvider, useInspect } from './inspect/context.js';
import { InspectView } from './inspect/InspectView.js';
import { KeyFeedSync } from './keys/KeyFeedSync.js';
import { KeyRouterProvider, ScopeContext } from './keys/router.js';
import { useKeyFeed } from './keys/useKeyFeed.js';
import { useKeyRouterState } from './keys/useKeyRouterState.js';
import { SCREENS, type ScreenId } from './screens/index.js';
import { type TuiSettings, TuiSettingsContext } from './settings.js';
import { Header } from './shell/Header.js';
import { HelpOverlay } from './shell/HelpOverlay.js';
import { HintLine } from './shell/HintLine.js';
import { Palette } from './shell/Palette.js';
import { QuestionView } from './shell/QuestionView.js';
import { StatusLine, statusRows } from './shell/StatusLine.js';
import { Tabs } from './shell/Tabs.js';
import { useGlobalKeys } from './shell/useGlobalKeys.js';
import { useHelp } from './shell/useHelp.js';
import { useNavigation } from './shell/useNavigation.js';
import { usePalette } from './shell/usePalette.js';
import { Welcome } from './shell/Welcome.js';
import { type Size, SizeContext, useTerminalSize } from './terminal.js';

export interface StartedSandbox {
  profile: Profile;
  sandbox: { url: string };
  receiver?: { url: string };
  /** Folder of the session's thread store (temporary for the sandbox). */
  configDir?: string;
  /** The session's desk store (the sandbox's file store, which its receiver writes). */
  store?: DeskStore;
}

export interface RootProps {
  /** The profile to open; undefined shows the welcome (offer the sandbox, or `pdesk profile import`). */
  profile?: Profile;
  /** Start an embedded sandbox (welcome screen `s`). */
  startSandbox?: () => Promise<StartedSandbox>;
  receiver?: { url: string };
  sandbox?: { url: string };
  configDir?: string;
  /** The desk store (default: the file store of `configDir`). */
  store?: DeskStore;
  /** The operator (default: PDESK_OPERATOR, else the settings' `operator`, else the login name). */
  operator?: string;
  makeClient?: (p: Profile) => PdeskClient;
  /** Options of the desk's client (`--read-only`, `--trace`); its writes are audited in `configDir`. */
  clientOptions?: ClientOptions;
  loadProfile?: (name: string) => Promise<Profile>;
  /** A fixed terminal size (tests, benches). */
  size?: Size;
  initialScreen?: ScreenId;
  /** Called with the exit code: 0 after `q` or `:q`, 130 after Ctrl-C (an interrupt, as cli.md says); default: Ink's exit(). */
  onQuit?: (code: number) => void;
  /** The saved profiles for the Systems screen (default: the profile store). */
  listProfiles?: TuiSettings['listProfiles'];
  /** Folder the raw view's `w` writes to (default: the current folder). */
  exportDir?: string;
  /** Deadline of one reachability probe on the Systems screen (default 5 s). */
  probeTimeoutMs?: number;
  /** Seconds between the Systems screen's refreshes (default 30). */
  systemsRefreshS?: number;
}

/** Lines around the screen: header, tabs, status, hints. */
export const CHROME_LINES = 4;

export function Root(p: RootProps) {
  const app = useApp();
  const quit = useCallback(() => (p.onQuit ? p.onQuit(0) : app.exit()), [p.onQuit, app]);
  const interrupt = useCallback(() => (p.onQuit ? p.onQuit(130) : app.exit()), [p.onQuit, app]);
  const { router, version } = useKeyRouterState(interrupt);
  const { isRawModeSupported } = useStdin();
  const feed = useKeyFeed(router);
  useInput(feed, { isActive: isRawModeSupported === true });
  const [started, setStarted] = useState<StartedSandbox | undefined>();
  const profile = started?.profile ?? p.profile;
  const settings = useMemo<TuiSettings>(
    () => ({ listProfiles: p.listProfiles, exportDir: p.exportDir, probeTimeoutMs: p.probeTimeoutMs, systemsRefreshS: p.systemsRefreshS }),
    [p.listProfiles, p.exportDir, p.probeTimeoutMs, p.systemsRefreshS],
  );
  return (
    <SizeContext.Provider value={p.size}>
      <TuiSettingsContext.Provider value={settings}>
        <KeyFeedSync feed={feed} />
        <KeyRouterProvider router={router} version={version}>
          {profile ? (
            <DeskProvider
              profile={profile}
              makeClient={p.makeClient}
              clientOptions={p.clientOptions}
              loadProfile={p.loadProfile}
              receiver={started?.receiver ?? p.receiver}
              sandbox={started?.sandbox ?? p.sandbox}
              configDir={started?.configDir ?? p.configDir}
              // A sandbox started from the welcome keeps its threads in its own folder.
              store={started ? started.store : p.store}
              operator={p.operator}
            >
              {() => <Shell initialScreen={p.initialScreen} quit={quit} exportDir={p.exportDir} />}
            </DeskProvider>
          ) : (
            <Welcome startSandbox={p.startSandbox} onStarted={setStarted} quit={quit} />
          )}
        </KeyRouterProvider>
      </TuiSettingsContext.Provider>
    </SizeContext.Provider>
  );
}

/** The App inside the inspector (raw view, X-ray), which opens over any screen and may jump to one. */
function Shell(p: { initialScreen?: ScreenId; quit: () => void; exportDir?: string }) {
  const show = useRef<(id: ScreenId) => void>(() => undefined);
  return (
    <InspectProvider show={(id) => show.current(id)} exportDir={p.exportDir}>
      <App initialScreen={p.initialScreen} quit={p.quit} showRef={show} />
    </InspectProvider>
  );
}

/** The frame's layout; what it does is in the hooks it calls (shell/). */
function App(p: { initialScreen?: ScreenId; quit: () => void; showRef: { current: (id: ScreenId) => void } }) {
  const desk = useDesk();
  const inspect = useInspect()!;
  const { columns, rows } = useTerminalSize();
  const nav = useNavigation(p.initialScreen);
  p.showRef.current = nav.show;
  const help = useHelp(SCREENS.find((s) => s.id === nav.current)!.title);
  const palette = usePalette({ nav, help, quit: p.quit });
  useGlobalKeys({ nav, help, palette, quit: p.quit });
  const { current, visited } = nav;

  const frame = Math.max(CHROME_LINES + 1, rows - 1);
  const width = Math.max(20, columns);
  // An error too long for one line (an OperationOutcome) takes up to ERROR_LINES lines from the screen.
  const statusLines = Math.min(statusRows(useDeskStatus(), current, width), Math.max(1, frame - CHROME_LINES));
  const bodyHeight = frame - CHROME_LINES - (statusLines - 1);
  const generation = `${desk.profile.name}`;
  // A write the client asks about (production, not confirmed on its screen) covers everything until answered.
  const question = useWriteQuestion();
  const helping = help.sections !== undefined;
  const inspecting = inspect.steps.length > 0 && !helping && !question;

  return (
    <Box flexDirection="column" width={width} height={frame} overflowY="hidden">
      <Header width={width} />
      <Tabs current={current} width={width} />
      <Box flexDirection="column" height={bodyHeight} overflowY="hidden">
        {question ? (
          <ScopeContext.Provider value={{ scope: 'question', shown: true }}>
            <QuestionView key={question.id} q={question} width={width} height={bodyHeight} />
          </ScopeContext.Provider>
        ) : null}
        {help.sections && !question ? (
          <ScopeContext.Provider value={{ scope: 'help', shown: true }}>
            <HelpOverlay sections={help.sections} width={width} height={bodyHeight} onClose={help.close} onQuit={p.quit} />
          </ScopeContext.Provider>
        ) : null}
        {inspect.steps.length ? (
          <Box display={inspecting ? 'flex' : 'none'} flexDirection="column" height={bodyHeight} overflowY="hidden">
            <ScopeContext.Provider value={{ scope: 'inspect', shown: true }}>
              <InspectView inspect={inspect} width={width} height={bodyHeight} />
            </ScopeContext.Provider>
          </Box>
        ) : null}
        {SCREENS.filter((s) => visited.includes(s.id)).map((s) => {
          const shown = s.id === current && !helping && !inspecting && !question;
          const C = s.component;
          // Screens restart on another profile; a screen about every profile (Systems) stays as it is.
          const key = s.acrossProfiles ? s.id : `${generation}:${s.id}`;
          return (
            <Box key={key} display={shown ? 'flex' : 'none'} flexDirection="column" height={bodyHeight} overflowY="hidden">
              <ScopeContext.Provider value={{ scope: s.id, shown: s.id === current && !inspect.steps.length }}>
                <DeskScreen id={s.id}>
                  <C width={width} height={bodyHeight} />
                </DeskScreen>
              </ScopeContext.Provider>
            </Box>
          );
        })}
      </Box>
      <StatusLine width={width} lines={statusLines} screen={current} />
      {palette.open ? <Palette width={width} onDone={palette.done} /> : <HintLine width={width} />}
    </Box>
  );
}
