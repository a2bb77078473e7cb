/** The TUI frame: navigation, palette, help, quit, layout limits, resize, abandon, sanitising, production. */
import chalk from 'chalk';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { Profile } from '../../src/core/profile/schema.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { Root } from '../../src/tui/app.js';
import { hintText } from '../../src/tui/shell/HintLine.js';
import { type Desk, KEY, lines, openDesk, tick } from './harness.js';

let desk: Desk | undefined;
afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

const SCREENS = [
  ['0', '[0 Systems]'],
  ['1', '[1 Slots]'],
  ['2', '[2 Appointments]'],
  ['3', '[3 Chat]'],
  ['4', '[4 Notify]'],
  ['5', '[5 Meds]'],
  ['6', '[6 Check]'],
] as const;

function checkFits(f: string, columns: number, rows: number) {
  const ls = lines(f);
  expect(ls.length).toBeLessThanOrEqual(rows - 1);
  for (const l of ls) expect(l.length).toBeLessThanOrEqual(columns);
}

describe('TUI frame', () => {
  it('0–6 open every screen; ? shows its keys and Esc closes; the frame fits 80×24 everywhere', async () => {
    desk = await openDesk({ size: { columns: 80, rows: 24 } });
    await desk.waitFor('gp — General practice');
    for (const [key, text] of SCREENS) {
      await desk.press(key);
      const f = await desk.waitFor(text);
      checkFits(f, 80, 24);
      expect(f).toContain('sandbox');
      expect(f).toContain('appt API 2.0.0');
      // At 80 columns the screen's hints give way before how to get help and how to leave.
      await desk.waitFor(/\? help {2}q quit$/);
      await desk.press('?');
      const h = await desk.waitFor('Help — keys');
      checkFits(h, 80, 24);
      expect(h).toContain('Everywhere');
      expect(h).toContain('command palette');
      await desk.press(KEY.esc);
      await desk.waitGone('Help — keys');
      expect(desk.frame()).toContain(text);
    }
  });

  it('Esc goes back to the previous screen; the : palette switches screens and profiles', async () => {
    desk = await openDesk();
    await desk.waitFor('gp — General practice');
    await desk.press('2');
    await desk.waitFor('3 appointments.'); // an Esc while it loads would abandon the load
    await desk.press('4');
    await desk.waitFor('[4 Notify]');
    await desk.press(KEY.esc);
    await desk.waitFor('Appointments (A5)');
    await desk.press(KEY.esc);
    await desk.waitFor('Service category');
    await desk.press(':');
    await desk.type('app');
    await desk.press(KEY.enter);
    await desk.waitFor('Appointments (A5)');
    await desk.press(':');
    await desk.type('meds');
    await desk.press(KEY.enter);
    await desk.waitFor('[5 Meds]');
    await desk.press(':');
    await desk.type('nowhere');
    await desk.press(KEY.enter);
    await desk.waitFor('Unknown command :nowhere');
    await desk.press(':');
    await desk.type('profile nope');
    await desk.press(KEY.enter);
    await desk.waitFor('There is no profile named "nope".');
    await desk.press(':');
    await desk.type('profile other');
    await desk.press(KEY.enter);
    // The header names the new profile and the open screen restarts on it (its title names the profile) and
    // loads its list again. The brief "Profile other." is not waited for: the reload's start clears it, so on
    // a fast machine it may never be drawn.
    const f = await desk.waitFor(/Medication requests \(M1\) — other[\s\S]*mr-1/);
    expect(f).toContain(' other [sandbox]');
    expect(f).not.toContain('no profile named');
  });

  it('q quits; in a form q is typed instead; Ctrl-C quits from anywhere', async () => {
    desk = await openDesk({ screen: 'appointments' });
    await desk.waitFor('appt-1');
    await desk.press('c');
    await desk.waitFor('Cancel appointment');
    await desk.press(KEY.down);
    await desk.type('qqq');
    await desk.waitFor('qqq');
    expect(desk.quitCalls).toBe(0);
    await desk.press(KEY.ctrlC);
    expect(desk.quitCalls).toBe(1);
    await desk.press(KEY.esc);
    await desk.waitFor('STATUS');
    await desk.press('q');
    expect(desk.quitCalls).toBe(2);
    // Ctrl-C is an interrupt: exit 130 (cli.md), q a quit: 0.
    expect(desk.quitCodes).toEqual([130, 0]);
    // The help says q quits, everywhere: so it does in the help too (Esc closes it).
    await desk.press('?');
    const h = await desk.waitFor('Help — keys');
    expect(h).toMatch(/^ {2}q\s+quit$/m);
    expect(h).toContain('Esc closes it');
    await desk.press('q');
    expect(desk.quitCalls).toBe(3);
  });

  it('a key that does nothing says so: X where nothing has an X-ray, y with nothing selected, any other key', async () => {
    desk = await openDesk({ size: { columns: 100, rows: 30 } });
    await desk.waitFor('gp — General practice');
    for (const screen of ['1', '4', '0']) {
      await desk.press(screen, 'X');
      await desk.waitFor('✗ Nothing to X-ray here: select an appointment (2), a chat thread (3) or a medication request (5)');
    }
    await desk.press('4', 'y');
    await desk.waitFor('Nothing to show raw here: select a row of a list, then y.');
    await desk.press('Z');
    await desk.waitFor('Z does nothing here: ? lists the keys of this screen.');
    // In a text field every key is text: nothing is said.
    await desk.press('n', 'Q');
    await desk.waitFor(/Email\s+Q/);
    expect(desk.frame()).not.toContain('Q does nothing here');
  });

  it('the hint line cuts the screen’s hints with … and keeps ? help and q quit', () => {
    const parts = ['c cancel', 'r refresh', 'y raw', 'Enter details', ': cmd', '? help', 'q quit'].map((text) => ({
      keys: text.split(' ')[0]!,
      text,
    }));
    expect(hintText(parts, 100)).toBe(' c cancel  r refresh  y raw  Enter details  : cmd  ? help  q quit');
    expect(hintText(parts, 40)).toBe(' c cancel  r refresh  …  ? help  q quit');
    expect(hintText(parts, 40).length).toBeLessThanOrEqual(40);
  });

  it('a screen’s status message is left with it; one a hidden screen set waits for it', async () => {
    // Answers take 150 ms: r then 4 leaves before the answer.
    desk = await openDesk({ screen: 'appointments', sandbox: { latencyMs: 150 } });
    await desk.waitFor('✓ 3 appointments.');
    await desk.press('5');
    // Meds loads while shown; Appointments' message is not carried over.
    await desk.waitFor('Metformin');
    expect(desk.frame()).not.toContain('3 appointments.');
    await desk.press('2');
    await desk.waitFor('[2 Appointments]');
    expect(desk.frame()).not.toContain('3 appointments.'); // read before: gone
    // r on Appointments, then away before the answer: the answer's message is there on return.
    await desk.press('r', '4');
    await desk.waitFor('[4 Notify]');
    await new Promise((r) => setTimeout(r, 400));
    expect(desk.frame()).not.toContain('3 appointments.');
    await desk.press('2');
    await desk.waitFor('✓ 3 appointments.');
  });

  it('Esc abandons a running request; the status line says so', async () => {
    desk = await openDesk({ screen: 'appointments', sandbox: { latencyMs: 3000 } });
    await desk.waitFor('Loading appointments (A5)');
    await desk.waitFor('Esc to abandon');
    const t0 = Date.now();
    await desk.press(KEY.esc);
    await desk.waitFor('Abandoned: Loading appointments (A5).', 1500);
    expect(Date.now() - t0).toBeLessThan(1500);
  });

  it('shows a network error in the status line and the header goes offline', async () => {
    desk = await openDesk({ screen: 'appointments' });
    await desk.waitFor('appt-1');
    await desk.sandbox.close();
    await desk.press('r');
    const f = await desk.waitFor('● offline', 8000);
    expect(f).toMatch(/refused|connect/i);
    // close() would close the sandbox again
    desk.sandbox.close = async () => undefined;
  });

  it('strips control sequences from server text', async () => {
    desk = await openDesk({ screen: 'appointments' });
    await desk.waitFor('appt-1');
    desk.sandbox.state.appointments.get('appt-1')!.comment = 'EVIL\u001b]0;pwned\u0007\u001b[2J\u001b[31mred';
    await desk.press('r');
    await desk.waitFor('1 appointments.'.replace('1', '3'));
    await desk.press(KEY.enter);
    const f = await desk.waitFor('EVILred');
    expect(f).not.toContain('\u001b]0;');
    expect(f).not.toContain('\u001b[2J');
    expect(f).not.toContain('\u0007');
  });

  it('follows terminal resizes and never draws more than rows − 1 lines', async () => {
    const sandbox = await startSandbox({ port: 0, log: () => undefined });
    const profile = Profile.parse(sandboxProfile(sandbox.url));
    const r = render(<Root profile={profile} onQuit={() => undefined} />);
    try {
      await tick(50);
      expect(lines(r.lastFrame()!).length).toBe(23); // no rows known: 24
      Object.defineProperty(r.stdout, 'rows', { value: 40, configurable: true });
      r.stdout.emit('resize');
      await tick(50);
      expect(lines(r.lastFrame()!).length).toBe(39);
      Object.defineProperty(r.stdout, 'rows', { value: 12, configurable: true });
      r.stdout.emit('resize');
      await tick(50);
      expect(lines(r.lastFrame()!).length).toBe(11);
    } finally {
      r.unmount();
      r.cleanup();
      await sandbox.close();
    }
  });

  it('shows a production environment in red on every screen', async () => {
    const level = chalk.level;
    chalk.level = 1;
    try {
      const sandbox = await startSandbox({ port: 0, log: () => undefined });
      const profile = Profile.parse({ ...sandboxProfile(sandbox.url), name: 'live', environment: 'production' });
      const r = render(<Root profile={profile} size={{ columns: 80, rows: 24 }} onQuit={() => undefined} listProfiles={async () => []} />);
      try {
        for (const key of ['0', '1', '2', '3', '4', '5', '6']) {
          r.stdin.write(key);
          await tick(40);
          const head = lines(r.lastFrame()!)[0]!;
          expect(head).toContain(' PRODUCTION ');
          expect(head).toMatch(/\u001b\[41m(\u001b\[\d+m)* PRODUCTION /); // red background
        }
      } finally {
        r.unmount();
        r.cleanup();
        await sandbox.close();
      }
    } finally {
      chalk.level = level;
    }
  });

  it('without a profile offers the sandbox; s starts one and opens it', async () => {
    const started: Array<() => Promise<void>> = [];
    let calls = 0;
    const r = render(
      <Root
        size={{ columns: 80, rows: 24 }}
        onQuit={() => undefined}
        startSandbox={async () => {
          calls++;
          const sandbox = await startSandbox({ port: 0, log: () => undefined });
          started.push(() => sandbox.close());
          return { profile: Profile.parse(sandboxProfile(sandbox.url)), sandbox: { url: sandbox.url } };
        }}
      />,
    );
    try {
      await tick(30);
      expect(r.lastFrame()).toContain('pdesk profile import');
      r.stdin.write('s');
      r.stdin.write('\r'); // Enter (or s again) while it starts: one sandbox only
      for (let i = 0; i < 200 && !r.lastFrame()!.includes('gp — General practice'); i++) await tick(20);
      expect(calls).toBe(1);
      expect(r.lastFrame()).toMatch(/sandbox :\d+/);
      expect(r.lastFrame()).toContain('gp — General practice');
    } finally {
      r.unmount();
      r.cleanup();
      for (const c of started) await c();
    }
  });
});
