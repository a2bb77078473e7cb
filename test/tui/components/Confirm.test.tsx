/** Confirm: y/Enter confirms, n/Esc goes back, long bodies scroll, an inactive one takes no keys. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Confirm } from '../../../src/tui/components/Confirm.js';
import { KEY } from '../harness.js';
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
});
