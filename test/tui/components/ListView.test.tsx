/** ListView: selection, filter, group headings, dim rows, the exact height (src/tui/components/ListView.tsx). */
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ListView } from '../../../src/tui/components/ListView.js';
import { KEY, renderBare } from '../harness.js';

const ITEMS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
let ui: ReturnType<typeof renderBare> | undefined;
afterEach(() => ui?.unmount());

/** A list whose items a test replaces (a reload). */
const host: { set?: (x: string[]) => void } = {};
function Host() {
  const [items, setItems] = useState(ITEMS);
  host.set = setItems;
  return (
    <ListView<string>
      items={items}
      width={60}
      height={8}
      title="Greek"
      render={(s) => s}
      itemKey={(s) => s}
      sort={{ columns: [{ key: 'l', name: 'length', value: (s) => s.length }] }}
    />
  );
}
/** A list whose items arrive after it is drawn (a background load), asked to start on `initialKey`. */
function Later({ initialKey }: { initialKey: string }) {
  const [items, setItems] = useState<string[]>([]);
  host.set = setItems;
  return (
    <ListView<string> items={items} width={40} height={8} title="Greek" render={(s) => s} itemKey={(s) => s} initialKey={initialKey} />
  );
}

describe('ListView', () => {
  it('a kept filter stays in view on a short list: the header gives way first, then the title', async () => {
    for (const [height, title, header] of [
      [4, true, true],
      [3, true, false],
      [2, false, false],
    ] as const) {
      ui = renderBare(
        <ListView<string> items={ITEMS} width={40} height={height} title="Greek" header="  NAME" render={(s) => s} itemKey={(s) => s} />,
      );
      await vi.waitFor(() => expect(ui!.frame()).toContain('alpha'));
      await ui.press('/', 't', 'a', KEY.enter);
      await vi.waitFor(() => expect(ui!.frame()).toContain('/ta'));
      const f = ui.frame();
      expect(f.split('\n')).toHaveLength(height);
      expect(f.includes('Greek')).toBe(title);
      expect(f.includes('NAME')).toBe(header);
      if (title) expect(f).toContain('1/2 of 5');
      ui.unmount();
      ui = undefined;
    }
  });

  it('initialKey: the selection starts on that item once it is listed (the current profile on Systems)', async () => {
    ui = renderBare(<Later initialKey="gamma" />);
    await vi.waitFor(() => expect(ui!.frame()).toContain('Greek'));
    host.set!(ITEMS);
    await vi.waitFor(() => expect(ui!.frame()).toContain('> gamma'));
    expect(ui.frame()).toContain('3/5');
  });

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

  it('s then a letter sorts by that column (again: reversed); Esc keeps the sort; the title shows the sort and the refresh time', async () => {
    const at = new Date(2026, 2, 1, 14, 3, 22);
    ui = renderBare(
      <ListView<string>
        items={ITEMS}
        width={60}
        height={8}
        title="Greek"
        render={(s) => s}
        itemKey={(s) => s}
        refreshedAt={at}
        sort={{
          columns: [
            { key: 'n', name: 'name', value: (s) => s },
            { key: 'l', name: 'length', value: (s) => s.length },
          ],
        }}
      />,
    );
    await vi.waitFor(() => expect(ui!.frame()).toContain('14:03:22 · 1/5'));
    expect(ui.frame()).toMatch(/> alpha/);
    await ui.press('s');
    await vi.waitFor(() => expect(ui!.frame()).toContain('sort by: n name  l length'));
    await ui.press('x'); // no such column: the prompt stays
    expect(ui.frame()).toContain('sort by:');
    await ui.press('l');
    await vi.waitFor(() => expect(ui!.frame()).toContain('length ↑ · 14:03:22'));
    expect(ui.frame()).not.toContain('sort by:');
    const order = () =>
      ui!
        .frame()
        .split('\n')
        .slice(1, 6)
        .map((l) => l.slice(2).trim());
    expect(order()).toEqual(['beta', 'alpha', 'gamma', 'delta', 'epsilon']);
    await ui.press('s', 'l');
    await vi.waitFor(() => expect(ui!.frame()).toContain('length ↓'));
    expect(order()).toEqual(['epsilon', 'alpha', 'gamma', 'delta', 'beta']);
    await ui.press('s', KEY.esc);
    await vi.waitFor(() => expect(ui!.frame()).not.toContain('sort by:'));
    expect(ui.frame()).toContain('length ↓');
  });

  it('the selection stays on its item when the list is sorted or reloaded; the next key moves from there', async () => {
    ui = renderBare(<Host />);
    await vi.waitFor(() => expect(ui!.frame()).toMatch(/> alpha/));
    await ui.press('j'); // beta
    await vi.waitFor(() => expect(ui!.frame()).toMatch(/> beta/));
    await ui.press('s', 'l'); // by length: beta first
    await vi.waitFor(() => expect(ui!.frame()).toContain('length ↑'));
    expect(ui.frame()).toMatch(/^> beta/m);
    await ui.press('s', 'l'); // reversed: epsilon alpha gamma delta beta
    await vi.waitFor(() => expect(ui!.frame()).toContain('length ↓'));
    expect(ui.frame().split('\n')[5]).toBe('> beta');
    await ui.press('k');
    await vi.waitFor(() => expect(ui!.frame()).toMatch(/> delta/));
    host.set!(['zeta', ...ITEMS]); // reloaded with one more row
    await vi.waitFor(() => expect(ui!.frame()).toContain('zeta'));
    expect(ui.frame()).toMatch(/> delta/);
    // A key and a reload drawn together (a background refresh landing right after the key): the key counts.
    ui.stdin.write('k');
    host.set!([...ITEMS, 'zeta']);
    await vi.waitFor(() => expect(ui!.frame()).toMatch(/> gamma/));
    ui.stdin.write('j');
    host.set!(['zeta', ...ITEMS]);
    await vi.waitFor(() => expect(ui!.frame()).toMatch(/> delta/));
    host.set!(ITEMS.filter((x) => x !== 'delta')); // gone: the nearest row
    await vi.waitFor(() => expect(ui!.frame()).not.toContain('delta'));
    expect(ui.frame()).toMatch(/> (gamma|beta)/);
  });

  it('draws coloured segments as one row, cut to the width', async () => {
    ui = renderBare(
      <ListView<string> items={['one']} width={12} height={2} render={(s) => [{ text: s, color: 'red' }, { text: ' and a long tail' }]} />,
    );
    await vi.waitFor(() => expect(ui!.frame()).toContain('one and a'));
    expect(ui.frame().split('\n')[0]).toBe('> one and a…');
  });
});
