import { describe, expect, it, vi } from 'vitest';
import type { Slot } from '../../../../src/core/schemas/appointment.js';
import { SlotList, practitionerWidth, slotLine } from '../../../../src/tui/screens/slots/slot-list.js';
import { KEY, renderBare } from '../../harness.js';

function manySlots(n: number): Slot[] {
  const out: Slot[] = [];
  const day0 = Date.UTC(2026, 0, 1);
  for (let i = 0; i < n; i++) {
    const start = day0 + Math.floor(i / 24) * 86_400_000 + (8 * 60 + (i % 24) * 20) * 60_000;
    out.push({
      resourceType: 'Slot',
      id: `slot-${i}`,
      status: 'free',
      start: new Date(start).toISOString().replace('.000Z', 'Z'),
      end: new Date(start + 20 * 60_000).toISOString().replace('.000Z', 'Z'),
      extension: [{ url: 'urn:extension:actor', valueReference: { reference: 'PractitionerRole/1001', display: 'Dr. Anna Berg' } }],
    });
  }
  return out;
}

const position = (f: string) => /(\d+)\/10000/.exec(f)?.[1];

describe('slotLine', () => {
  it('shows a slot that has begun as past instead of its status', () => {
    const [slot] = manySlots(1);
    expect(slotLine(slot!)).toMatch(/^08:00-08:20 {2}Dr\. Anna Berg \(1001\)\s+free\s+slot-0$/);
    expect(slotLine(slot!, true)).toMatch(/\s+past\s+slot-0$/);
  });

  it('the practitioner column grows to the longest practitioner on a wide terminal, and is 28 otherwise', () => {
    const [slot] = manySlots(1);
    const long = {
      ...slot!,
      extension: [
        {
          url: 'urn:extension:actor',
          valueReference: { reference: 'PractitionerRole/2002', display: 'Prof. dr. Annemarie van den Berg-Smit' },
        },
      ],
    };
    expect(practitionerWidth([slot!, long], 60)).toBe(28);
    // Slot ids keep their width first (a UUID at 80 columns): the practitioner stays at 28.
    expect(practitionerWidth([{ ...long, id: '3f2b6c1e-9d4a-4f0e-8a51-2c7d9e0b4a17' }], 78)).toBe(28);
    const w = practitionerWidth([slot!, long], 198);
    expect(w).toBe('Prof. dr. Annemarie van den Berg-Smit (2002)'.length);
    expect(slotLine(long, false, w)).toContain('Prof. dr. Annemarie van den Berg-Smit (2002)  free');
  });
});

describe('SlotList', () => {
  it('labels the slots its `past` names', async () => {
    const slots = manySlots(3);
    const ui = renderBare(<SlotList slots={slots} width={80} height={8} past={(s) => s.id === 'slot-0'} />);
    await vi.waitFor(() => expect(ui.frame()).toContain('slot-2'));
    expect(ui.frame()).toMatch(/08:00-08:20 .*past\s+slot-0/);
    expect(ui.frame()).toMatch(/08:20-08:40 .*free\s+slot-1/);
    ui.unmount();
  });
});

describe('SlotList with 10,000 slots', () => {
  it('renders only a window and pages through the whole list quickly', async () => {
    const slots = manySlots(10_000);
    const ui = renderBare(<SlotList slots={slots} width={80} height={22} />);
    await new Promise((r) => setTimeout(r, 20));
    const first = ui.frame();
    expect(first.split('\n')).toHaveLength(22);
    expect(first).toContain('slot-0');
    expect(position(first)).toBe('1');
    // Speed is measured by bench/tui.mjs (npm run bench), not asserted here.
    let prev = first;
    for (let i = 0; i < 40; i++) {
      ui.stdin.write(KEY.pgdn);
      while (ui.frame() === prev) await new Promise((r) => setImmediate(r));
      prev = ui.frame();
    }
    const pos = Number(position(prev));
    // 40 pages of ~19 rows (minus the day headings skipped) moved the selection far down.
    expect(pos).toBeGreaterThan(600);
    expect(prev.split('\n')).toHaveLength(22);
    await ui.press(KEY.end);
    await vi.waitFor(() => expect(position(ui.frame())).toBe('10000'));
    expect(ui.frame()).toContain('slot-9999');
    await ui.press(KEY.pgup);
    await vi.waitFor(() => expect(Number(position(ui.frame()))).toBeLessThan(10000));
    await ui.press(KEY.home);
    await vi.waitFor(() => expect(position(ui.frame())).toBe('1'));
    ui.unmount();
  });

  it('filters 10,000 slots', async () => {
    const ui = renderBare(<SlotList slots={manySlots(10_000)} width={80} height={22} />);
    await new Promise((r) => setTimeout(r, 20));
    await ui.press('/');
    for (const ch of 'slot-9998') await ui.press(ch);
    // Wait for the render of the last key: a loaded machine may not have drawn it yet.
    await vi.waitFor(() => expect(ui.frame()).toContain('1/1 of 10000'), { timeout: 5000 });
    expect(ui.frame()).toContain('slot-9998');
    ui.unmount();
  });
});
