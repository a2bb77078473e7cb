/**
 * The TUI root: key router, desk (profile, client, status), layout (header, tabs, screen, status line, key
 * hints), navigation (1–5, `:` palette, Esc back, `?` help, q quit) and the no-profile welcome. The frame is
 * always `rows − 1` lines: Ink clears the whole terminal on every frame when it is taller (DEVELOPERS.md, "Stack notes").
 */
import { Box, Text, useApp, useInput, useStdin } from 'ink';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ClientOptions, PdeskClient } from '../core/client.js';
import type { Profile } from '../profiles/schema.js';
import { Confirm } from './components/Confirm.js';
import {
  DeskProvider,
  DeskScreen,
  type DeskStatus,
  type StatusMessage,
  type WriteQuestion,
  errorText,
  statusOn,
  useDesk,
  useDeskStatus,
  useWriteQuestion,
} from './desk.js';
import { clean, fit, jsonLines, wrap } from './format.js';
import { type Binding, KeyRouterProvider, ScopeContext } from './keys/router.js';
import { KeyFeedSync } from './keys/KeyFeedSync.js';
import { keyLabel } from './keys/names.js';
import { useKeyRouter } from './keys/useKeyRouter.js';
import { useKeyFeed } from './keys/useKeyFeed.js';
import { useKeyRouterState } from './keys/useKeyRouterState.js';
import { useKeys } from './keys/useKeys.js';
import { useActiveKeys } from './keys/useActiveKeys.js';
import { useRefState } from './keys/useRefState.js';
import { EDIT_KEYS, type LineState, editLine, lineView } from './components/line-editor.js';
import { InspectProvider, useInspect } from './inspect/context.js';
import { InspectView } from './inspect/InspectView.js';
import { type TuiSettings, TuiSettingsContext } from './settings.js';
import { SCREENS, type ScreenId, screenFor } from './screens/index.js';
import { type Size, SizeContext, useTerminalSize } from './terminal.js';

export interface StartedSandbox {
  profile: Profile;
  sandbox: { url: string };
  receiver?: { url: string };
  /** Folder of the session's thread store (temporary for the sandbox). */
  configDir?: string;
}

export interface RootProps {
  /** The profile to open; undefined shows the welcome (offer the sandbox, or `pdesk profile import`). */
  profile?: Profile;
  /** Start an embedded sandbox (welcome screen `s`). */
  startSandbox?: () => Promise<StartedSandbox>;
  receiver?: { url: string };
  sandbox?: { url: string };
  configDir?: string;
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

function Welcome(p: { startSandbox?: () => Promise<StartedSandbox>; onStarted: (s: StartedSandbox) => void; quit: () => void }) {
  const { columns, rows } = useTerminalSize();
  const [msg, setMsg] = useState<string | undefined>();
  /** A second s/Enter while the sandbox starts must not start another one. */
  const starting = useRef(false);
  const start = async () => {
    if (!p.startSandbox || starting.current) return;
    starting.current = true;
    setMsg('Starting the sandbox…');
    try {
      p.onStarted(await p.startSandbox());
    } catch (e) {
      setMsg(errorText(e));
    } finally {
      starting.current = false;
    }
  };
  useKeys(
    [
      { keys: ['s', 'enter'], label: 'start a sandbox', run: () => void start() },
      { keys: ['q', 'esc'], label: 'quit', run: () => p.quit() },
    ],
    { layer: 'modal', capture: true },
  );
  const lines = [
    'pdesk — no profile yet',
    '',
    'There is no saved profile to open.',
    '',
    p.startSandbox ? '  s   start an embedded sandbox (practice system + portal) and open it here' : '',
    '  q   quit, then add a profile:',
    '        pdesk profile import <file.json> --default   (examples in profiles/)',
    '        pdesk profile add',
    '',
    msg ?? '',
  ];
  return (
    <Box flexDirection="column" height={rows - 1} overflowY="hidden">
      {lines.slice(0, rows - 1).map((l, i) => (
        <Text key={i} bold={i === 0} color={i === lines.length - 1 ? 'yellow' : undefined} wrap="truncate">
          {fit(l, columns) || ' '}
        </Text>
      ))}
    </Box>
  );
}

type Overlay = { kind: 'help'; sections: HelpSection[] } | { kind: 'palette' } | undefined;

const NOTHING_TO_XRAY = 'Nothing to X-ray here: select an appointment (2), a chat thread (3) or a medication request (5), then :xray or X.';

interface HelpSection {
  title: string;
  rows: Array<[string, string]>;
}

/** The shell inside the inspector (raw view, X-ray), which opens over any screen and may jump to one. */
function Shell(p: { initialScreen?: ScreenId; quit: () => void; exportDir?: string }) {
  const show = useRef<(id: ScreenId) => void>(() => undefined);
  return (
    <InspectProvider show={(id) => show.current(id)} exportDir={p.exportDir}>
      <ShellView initialScreen={p.initialScreen} quit={p.quit} showRef={show} />
    </InspectProvider>
  );
}

function ShellView(p: { initialScreen?: ScreenId; quit: () => void; showRef: { current: (id: ScreenId) => void } }) {
  const desk = useDesk();
  const inspect = useInspect()!;
  const router = useKeyRouter();
  const { columns, rows } = useTerminalSize();
  const [current, setCurrent, currentRef] = useRefState<ScreenId>(p.initialScreen ?? 'slots');
  const [visited, setVisited] = useState<ScreenId[]>([p.initialScreen ?? 'slots']);
  const history = useRef<ScreenId[]>([]);
  const [overlay, setOverlay] = useState<Overlay>();

  const show = (id: ScreenId, o: { back?: boolean } = {}) => {
    const cur = currentRef.current;
    // A screen key while inspecting closes the inspector (the screen beneath is as it was).
    if (inspect.steps.length) inspect.close();
    if (cur === id) return;
    if (!o.back) history.current.push(cur);
    // What the screen left and the desk said was read there; a message another screen set meanwhile waits for it.
    desk.leaveScreen(cur);
    setCurrent(id);
    setVisited((v) => (v.includes(id) ? v : [...v, id]));
  };

  p.showRef.current = (id) => show(id);

  const openHelp = () => {
    const screen = SCREENS.find((s) => s.id === current)!;
    const mine: Array<[string, string]> = [];
    const global: Array<[string, string]> = [];
    const seen = { mine: new Set<string>(), global: new Set<string>() };
    for (const r of router.active()) {
      const section = r.layer === 'global' ? 'global' : 'mine';
      for (const b of r.bindings) {
        const text = b.help ?? b.label;
        if (!text) continue;
        const keys =
          b.helpKeys ??
          b.keys
            .filter((k) => k !== 'text')
            .map(keyLabel)
            .join(' ');
        if (seen[section].has(keys)) continue;
        seen[section].add(keys);
        (section === 'global' ? global : mine).push([keys, text]);
      }
    }
    setOverlay({
      kind: 'help',
      sections: [
        { title: `${screen.title} screen`, rows: mine },
        { title: 'Everywhere', rows: [...global, ['^C', 'quit']] },
      ],
    });
  };

  const globalKeys: Binding[] = [
    ...SCREENS.map<Binding>((s, i) => ({
      keys: [s.key],
      helpKeys: i === 0 ? `${SCREENS[0]!.key}–${SCREENS[SCREENS.length - 1]!.key}` : undefined,
      help: i === 0 ? `screens: ${SCREENS.map((x) => x.title).join(', ')}` : undefined,
      run: () => show(s.id),
    })),
    {
      keys: [':'],
      label: 'cmd',
      help: `command palette: ${SCREENS.map((s) => `:${s.command}`).join(' ')} :xray :profile <name> :q`,
      run: () => setOverlay({ kind: 'palette' }),
    },
    { keys: ['?'], label: 'help', help: 'this help', run: openHelp },
    {
      keys: ['esc'],
      help: 'back (to the previous screen)',
      run: () => {
        const prev = history.current.pop();
        if (prev) show(prev, { back: true });
      },
    },
    { keys: ['q'], label: 'quit', help: 'quit', run: () => p.quit() },
    // Keys no screen took: said, not ignored (k9s-like).
    { keys: ['X'], run: () => desk.error(NOTHING_TO_XRAY) },
    { keys: ['y'], run: () => desk.info('Nothing to show raw here: select a row of a list, then y.') },
    {
      keys: ['text'],
      run: (input) => {
        // A run of keys (a paste) goes back to be read key by key.
        if ([...input].length !== 1) return false;
        desk.info(`${input === ' ' ? 'Space' : input} does nothing here: ? lists the keys of this screen.`);
      },
    },
  ];
  useKeys(globalKeys, { layer: 'global' });

  const runCommand = (line: string) => {
    const [cmd = '', ...rest] = line.trim().replace(/^:/, '').split(/\s+/);
    const arg = rest.join(' ');
    if (!cmd) return;
    if (cmd === 'q' || cmd === 'quit') return p.quit();
    if (cmd === 'profile' || cmd === 'ctx') {
      // Without a name: the Systems screen lists every profile (Enter switches).
      if (!arg) return show('systems');
      if (arg === desk.profile.name) return desk.info(`Already on profile ${arg}.`);
      void desk.switchProfile(arg);
      return;
    }
    if (cmd === 'help') return openHelp();
    if (cmd === 'xray' || cmd === 'x-ray') {
      if (!inspect.xrayOf(currentRef.current)) desk.error(NOTHING_TO_XRAY);
      return;
    }
    const s = screenFor(cmd);
    if (s) return show(s.id);
    desk.error(`Unknown command :${cmd} (try ${SCREENS.map((x) => `:${x.command}`).join(', ')}, :xray, :profile <name>, :q).`);
  };

  const frame = Math.max(CHROME_LINES + 1, rows - 1);
  const width = Math.max(20, columns);
  // An error too long for one line (an OperationOutcome) takes up to ERROR_LINES lines from the screen.
  const statusLines = Math.min(statusRows(useDeskStatus(), current, width), Math.max(1, frame - CHROME_LINES));
  const bodyHeight = frame - CHROME_LINES - (statusLines - 1);
  const generation = `${desk.profile.name}`;
  // A write the client asks about (production, not confirmed on its screen) covers everything until answered.
  const question = useWriteQuestion();
  const inspecting = inspect.steps.length > 0 && overlay?.kind !== 'help' && !question;

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
        {overlay?.kind === 'help' && !question ? (
          <ScopeContext.Provider value={{ scope: 'help', shown: true }}>
            <HelpOverlay
              sections={overlay.sections}
              width={width}
              height={bodyHeight}
              onClose={() => setOverlay(undefined)}
              onQuit={p.quit}
            />
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
          const shown = s.id === current && overlay?.kind !== 'help' && !inspecting && !question;
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
      {overlay?.kind === 'palette' ? (
        <Palette
          width={width}
          onDone={(line) => {
            setOverlay(undefined);
            if (line !== undefined) runCommand(line);
          }}
        />
      ) : (
        <HintLine width={width} />
      )}
    </Box>
  );
}

/** A write the desk's client holds until the operator confirms it (a key that sends without a review of its own). */
function QuestionView({ q, width, height }: { q: WriteQuestion; width: number; height: number }) {
  return (
    <Confirm
      question={clean(`Send ${q.what} to ${q.target}?`)}
      lines={q.body === undefined ? [] : jsonLines(q.body)}
      yesLabel="send it"
      danger
      onYes={() => q.answer(true)}
      onNo={() => q.answer(false)}
      width={width}
      height={height}
    />
  );
}

function Header({ width }: { width: number }) {
  const { profile, receiver, sandbox, readOnly } = useDesk();
  const { connection, lastMs } = useDeskStatus();
  const env = profile.environment ?? 'no environment';
  const prod = /^prod(uction)?$/i.test(profile.environment ?? '');
  const conn =
    connection === 'online'
      ? `● online${lastMs !== undefined ? ` ${lastMs} ms` : ''}`
      : connection === 'offline'
        ? '● offline'
        : '○ not checked';
  const port = (u: string) => u.replace(/^https?:\/\/(127\.0\.0\.1|localhost)/, '');
  const extra = [sandbox ? `sandbox ${port(sandbox.url)}` : '', receiver ? `push ${port(receiver.url)}` : ''].filter(Boolean).join(' ');
  // Read-only (the profile's readOnly, or --read-only) is said beside the environment: write keys do nothing.
  const ro = readOnly ? ' read-only ' : '';
  const fixed = ` pdesk  ${profile.name}  ${prod ? ` ${env.toUpperCase()} ` : `[${env}]`}${ro ? ` ${ro}` : ''}  appt API ${profile.appointmentApi}  `;
  const rest = Math.max(0, width - fixed.length - conn.length);
  return (
    <Text wrap="truncate">
      <Text bold> pdesk </Text>
      <Text bold color="cyan">
        {' '}
        {profile.name}{' '}
      </Text>
      {prod ? (
        <Text bold color="white" backgroundColor="red">
          {` ${env.toUpperCase()} `}
        </Text>
      ) : (
        <Text color="green">[{env}]</Text>
      )}
      {ro ? (
        <>
          <Text> </Text>
          <Text bold color="black" backgroundColor="yellow">
            {ro}
          </Text>
        </>
      ) : null}
      <Text>{`  appt API ${profile.appointmentApi}  `}</Text>
      <Text color={connection === 'online' ? 'green' : connection === 'offline' ? 'red' : 'gray'}>{conn}</Text>
      <Text dimColor>{extra ? fit(`  ${extra}`, rest) : ''}</Text>
    </Text>
  );
}

function Tabs({ current, width }: { current: ScreenId; width: number }) {
  const { profile } = useDesk();
  const prod = /^prod(uction)?$/i.test(profile.environment ?? '');
  let used = 0;
  return (
    <Text wrap="truncate">
      {SCREENS.map((s) => {
        const on = s.id === current;
        // The current tab is bracketed too, so it shows without colour (NO_COLOR, captures).
        const label = on ? `[${s.key} ${s.title}]` : ` ${s.key} ${s.title} `;
        used += label.length + 1;
        if (used > width) return null;
        return (
          <Text key={s.id}>
            <Text inverse={on} bold={on} color={on && prod ? 'red' : undefined} dimColor={!on}>
              {label}
            </Text>{' '}
          </Text>
        );
      })}
    </Text>
  );
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Most lines an error in the status line may take (the rest is cut with `…`). */
const ERROR_LINES = 3;

/** The status line's text word-wrapped to `width` columns, at most `max` lines (the last cut with `…`). */
export function wrapStatus(text: string, width: number, max: number): string[] {
  const all = wrap(text, width);
  if (all.length <= max) return all;
  return [...all.slice(0, max - 1), fit(all.slice(max - 1).join(' '), width)];
}

const statusText = (s: StatusMessage) => `${s.kind === 'error' ? '✗ ' : s.kind === 'ok' ? '✓ ' : ''}${s.text}`;

/** Lines the status line needs on `screen`: an error shows whole (up to ERROR_LINES), anything else takes one. */
function statusRows(s: DeskStatus, screen: string, width: number): number {
  const status = statusOn(s, screen);
  if (s.busy || status?.kind !== 'error') return 1;
  return wrapStatus(statusText(status), width, ERROR_LINES).length;
}

function StatusLine({ width, lines = 1, screen }: { width: number; lines?: number; screen: string }) {
  const all = useDeskStatus();
  const { busy } = all;
  const status = statusOn(all, screen);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!busy) return;
    const t = setInterval(() => setTick((n) => n + 1), 120);
    return () => clearInterval(t);
  }, [busy]);
  if (busy) {
    const secs = ((Date.now() - busy.started) / 1000).toFixed(1);
    // A message said while the task runs (a key that did nothing meanwhile) shows before it.
    const said = status && status.seq > busy.since ? `${statusText(status)} · ` : '';
    return (
      <Text color="yellow" wrap="truncate">
        {fit(`${said}${SPINNER[tick % SPINNER.length]} ${busy.label}… ${secs} s  (Esc to abandon)`, width)}
      </Text>
    );
  }
  if (!status) return <Text> </Text>;
  const color = status.kind === 'error' ? 'red' : status.kind === 'ok' ? 'green' : undefined;
  return (
    <>
      {wrapStatus(statusText(status), width, lines).map((l, i) => (
        <Text key={i} color={color} wrap="truncate">
          {l || ' '}
        </Text>
      ))}
    </>
  );
}

/** Hints that stay on a narrow terminal, whatever else gives way: how to find every key, and how to leave. */
const KEPT_HINTS = new Set(['?', 'q']);

/**
 * Labeled bindings of the topmost capture group, then the rest down to the global keys. When they do not fit,
 * the screen's hints give way (cut with `…`) before `? help` and `q quit`.
 */
export function hintText(parts: ReadonlyArray<{ keys: string; text: string }>, width: number): string {
  const all = parts.map((p) => p.text).join('  ');
  if (all.length + 1 <= width) return ` ${all}`;
  const kept = parts.filter((p) => KEPT_HINTS.has(p.keys)).map((p) => p.text);
  const tail = kept.length ? `  ${kept.join('  ')}` : '';
  const room = width - 1 - tail.length;
  let head = '';
  for (const p of parts) {
    if (KEPT_HINTS.has(p.keys) && kept.length) continue;
    const next = head ? `${head}  ${p.text}` : p.text;
    if (next.length + 3 > room) {
      head = head ? `${head}  …` : '…';
      break;
    }
    head = next;
  }
  return fit(` ${head}${tail}`, width);
}

function HintLine({ width }: { width: number }) {
  const active = useActiveKeys();
  const parts: Array<{ keys: string; text: string }> = [];
  const seen = new Set<string>();
  for (const r of active) {
    for (const b of r.bindings) {
      if (!b.label) continue;
      const keys = b.keys
        .filter((k) => k !== 'text')
        .map(keyLabel)
        .slice(0, 2)
        .join('/');
      if (seen.has(keys)) continue;
      seen.add(keys);
      parts.push({ keys, text: `${keys} ${b.label}` });
    }
    if (r.capture) break;
  }
  return (
    <Text dimColor wrap="truncate">
      {hintText(parts, width)}
    </Text>
  );
}

function HelpOverlay(p: { sections: HelpSection[]; width: number; height: number; onClose: () => void; onQuit: () => void }) {
  const lines = useMemo(() => {
    const out: Array<{ text: string; head?: boolean }> = [];
    for (const s of p.sections) {
      if (out.length) out.push({ text: '' });
      out.push({ text: s.title, head: true });
      const kw = Math.min(16, Math.max(6, ...s.rows.map(([k]) => k.length)));
      for (const [k, t] of s.rows) out.push({ text: `  ${k.padEnd(kw)}  ${t}` });
    }
    return out;
  }, [p.sections]);
  const [top, setTop] = useState(0);
  const room = Math.max(1, p.height - 1);
  const maxTop = Math.max(0, lines.length - room);
  const scroll = (d: number) => setTop((t) => Math.max(0, Math.min(maxTop, t + d)));
  useKeys(
    [
      { keys: ['esc', '?', 'enter'], label: 'close help', run: () => p.onClose() },
      // As the help says under "Everywhere".
      { keys: ['q'], label: 'quit', run: () => p.onQuit() },
      { keys: ['down', 'j'], label: 'scroll', run: () => scroll(1) },
      { keys: ['up', 'k'], run: () => scroll(-1) },
      { keys: ['pgdn'], run: () => scroll(room) },
      { keys: ['pgup'], run: () => scroll(-room) },
    ],
    { layer: 'modal', capture: true },
  );
  const shown = lines.slice(top, top + room);
  return (
    <Box flexDirection="column" height={p.height} overflowY="hidden">
      <Text bold color="cyan" wrap="truncate">
        {fit(`Help — keys${maxTop ? ` (${top + 1}–${top + shown.length} of ${lines.length}, ↑↓ to scroll)` : ''} · Esc closes it`, p.width)}
      </Text>
      {shown.map((l, i) => (
        <Text key={i} bold={l.head} wrap="truncate">
          {fit(l.text, p.width) || ' '}
        </Text>
      ))}
    </Box>
  );
}

const COMMANDS = [...SCREENS.map((s) => s.command), 'xray', 'profile ', 'help', 'quit'];

function Palette(p: { width: number; onDone: (line: string | undefined) => void }) {
  const [s, setS, sRef] = useRefState<LineState>({ value: '', cursor: 0 });
  useKeys(
    [
      { keys: ['enter'], label: 'run', run: () => p.onDone(sRef.current.value) },
      { keys: ['esc'], label: 'close', run: () => p.onDone(undefined) },
      {
        keys: ['tab'],
        label: 'complete',
        run: () => {
          const hit = COMMANDS.find((c) => c.startsWith(sRef.current.value.trim()));
          if (hit) setS({ value: hit, cursor: hit.length });
        },
      },
      {
        keys: [...EDIT_KEYS],
        run: (input, key) => {
          const next = editLine(sRef.current, input, key, 200);
          if (!next) return false;
          setS(next);
        },
      },
    ],
    { layer: 'modal', capture: true },
  );
  const [a, b, c] = lineView(s, Math.max(1, p.width - 2));
  const hint = COMMANDS.filter((c) => c.startsWith(s.value.trim()) && s.value.trim() !== c.trim())
    .slice(0, 6)
    .join('  ');
  return (
    <Text wrap="truncate">
      <Text color="yellow">:</Text>
      {a}
      <Text inverse>{b}</Text>
      {c}
      <Text dimColor>{fit(`   ${hint}`, Math.max(0, p.width - 2 - a.length - c.length - 1))}</Text>
    </Text>
  );
}
