/** Confirm: y/Enter confirms, n/Esc goes back, long bodies scroll, an inactive one takes no keys. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Confirm } from '../../../src/tui/components/Confirm.js';
import { KEY } from '../harness.js';
import { Profile } from '../../../src/core/profile/schema.js';
import { sandboxProfile } from '../../../src/sandbox/profile.js';
import { renderWithDesk } from '../hook-harness.js';

let ui: ReturnType<typeof renderWithDesk> | undefined;
afterEach(() => ui?.unmount());

const LINES = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);

describe('Confirm', () => {
  it('scrolls what will be sent, and says yes or no', async () => {
    const calls: string[] = [];
    ui = renderWithDesk(
      <Confirm
        question="Send?"
        lines={LINES}
        yesLabel="send"
        onYes={() => calls.push('yes')}
        onNo={() => calls.push('no')}
        width={80}
        height={8}
      />,
    );
    await vi.waitFor(() => expect(ui!.frame()).toContain('… 15 more lines (↓ to scroll) · y/Enter: send · n/Esc: back'));
    await ui.press(KEY.pgdn, 'j');
    await vi.waitFor(() => expect(ui!.frame()).toContain('line 11'));
    expect(ui.frame()).not.toContain('line 1\n');
    await ui.press('n', KEY.esc, 'y', KEY.enter);
    await vi.waitFor(() => expect(calls).toEqual(['no', 'no', 'yes', 'yes']));
  });

  it('below the top step it takes no keys', async () => {
    const calls: string[] = [];
    ui = renderWithDesk(
      <Confirm
        question="Send?"
        lines={LINES}
        onYes={() => calls.push('yes')}
        onNo={() => calls.push('no')}
        width={40}
        height={8}
        active={false}
      />,
    );
    await vi.waitFor(() => expect(ui!.frame()).toContain('Send?'));
    await ui.press('y', 'n');
    expect(calls).toEqual([]);
  });

  it("on production, y is a letter: the profile's name typed and Enter confirm; a wrong name sends nothing and says so", async () => {
    const calls: string[] = [];
    const profile = Profile.parse({ ...sandboxProfile('http://127.0.0.1:9', { name: 'acme-prod' }), environment: 'production' });
    ui = renderWithDesk(
      <Confirm
        question="Send?"
        lines={['{', '  "resourceType": "Appointment"', '}']}
        yesLabel="send"
        onYes={() => calls.push('yes')}
        onNo={() => calls.push('no')}
        width={100}
        height={10}
      />,
      { profile },
    );
    await vi.waitFor(() => expect(ui!.frame()).toContain(`Production: type the profile's name "acme-prod" and Enter to send · Esc: back`));
    await ui.press('y', KEY.enter);
    await vi.waitFor(() => expect(ui!.frame()).toContain('That is not "acme-prod"'));
    expect(calls).toEqual([]);
    for (const k of ['\u007F']) await ui.press(k); // Backspace: the "y" goes
    await ui.press('acme-pro');
    await ui.press(KEY.enter);
    await vi.waitFor(() => expect(ui!.frame()).toContain('That is not "acme-prod"'));
    expect(calls).toEqual([]);
    await ui.press('d');
    await vi.waitFor(() => expect(ui!.frame()).toContain('> acme-prod'));
    await ui.press(KEY.enter);
    await vi.waitFor(() => expect(calls).toEqual(['yes']));
    await ui.press(KEY.esc);
    await vi.waitFor(() => expect(calls).toEqual(['yes', 'no']));
  });

  it('on production at 80 columns the prompt wraps: the long name to type is never cut, no line is wider', async () => {
    const name = 'amsterdam-production-east-2';
    const profile = Profile.parse({ ...sandboxProfile('http://127.0.0.1:9', { name }), environment: 'production' });
    ui = renderWithDesk(
      <Confirm
        question="Cancel appointment appt-1? POST AppointmentResponse (A7) to the practice system:"
        lines={['{', '  "resourceType": "AppointmentResponse"', '}']}
        yesLabel="cancel it"
        danger
        onYes={() => undefined}
        onNo={() => undefined}
        width={80}
        height={12}
      />,
      { profile },
    );
    const f = await vi.waitFor(() => {
      const frame = ui!.frame();
      expect(frame).toContain('cancel it · Esc: back');
      return frame;
    });
    expect(f).toContain(`"${name}"`);
    for (const l of f.split('\n')) expect(l.length).toBeLessThanOrEqual(80);
  });

  it('on production, a confirmation that sends nothing (notAWrite) still takes y', async () => {
    const calls: string[] = [];
    const profile = Profile.parse({ ...sandboxProfile('http://127.0.0.1:9', { name: 'acme-prod' }), environment: 'production' });
    ui = renderWithDesk(
      <Confirm question="Go?" lines={[]} notAWrite onYes={() => calls.push('yes')} onNo={() => undefined} width={80} height={6} />,
      {
        profile,
      },
    );
    await vi.waitFor(() => expect(ui!.frame()).toContain('y/Enter: yes'));
    await ui.press('y');
    await vi.waitFor(() => expect(calls).toEqual(['yes']));
  });
});
