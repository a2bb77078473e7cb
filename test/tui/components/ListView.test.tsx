/** ListView: selection, filter, group headings, dim rows, the exact height (src/tui/components/ListView.tsx). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ListView } from '../../../src/tui/components/ListView.js';
import { KEY, renderBare } from '../harness.js';

const ITEMS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
let ui: ReturnType<typeof renderBare> | undefined;
afterEach(() => ui?.unmount());

describe('ListView', () => {
  it('moves, opens, filters (Enter keeps it, Esc clears it), reports the selection and keeps its height', async () => {
    const opened: string[] = [];
    const selected: Array<string | undefined> = [];
    ui = renderBare(
      <ListView<string>
        items={ITEMS}
        width={30}
        height={6}
        title="Greek"
        render={(s) => s}
        itemKey={(s) => s}
        onOpen={(s) => opened.push(s)}
        onSelect={(s) => selected.push(s)}
      />,
    );
    await vi.waitFor(() => expect(ui!.frame()).toContain('1/5'));
    expect(ui.frame().split('\n')).toHaveLength(6);
    await ui.press('j', 'j', KEY.enter);
    await vi.waitFor(() => expect(opened).toEqual(['gamma']));
    expect(selected.at(-1)).toBe('gamma');
    await ui.press('/', 't', 'a', KEY.enter);
    await vi.waitFor(() => expect(ui!.frame()).toContain('/2 of 5'));
    expect(ui.frame()).toContain('beta');
    expect(ui.frame()).toContain('delta');
    expect(ui.frame()).not.toContain('gamma');
    expect(ui.frame().split('\n')).toHaveLength(6);
    await ui.press(KEY.esc);
    await vi.waitFor(() => expect(ui!.frame()).toContain('/5'));
    expect(ui.frame()).not.toContain('/ta');
    await ui.press(KEY.end);
    await vi.waitFor(() => expect(ui!.frame()).toContain('5/5'));
  });

  it('group headings are not rows: the position counts items only', async () => {
    ui = renderBare(
      <ListView<string> items={ITEMS} width={30} height={9} title="By length" render={(s) => s} groupOf={(s) => `${s.length} letters`} />,
    );
    await vi.waitFor(() => expect(ui!.frame()).toContain('5 letters (2)'));
    expect(ui.frame()).toContain('4 letters (1)');
    await ui.press('j');
    await vi.waitFor(() => expect(ui!.frame()).toContain('2/5'));
    expect(ui.frame()).toMatch(/> beta/);
  });
});
