/** The key router without React (src/tui/keys/router.tsx): dispatch order, capture, fall-through, change signal. */
import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { type Binding, type Layer, type Registration, createKeyRouter } from '../../../src/tui/keys/router.js';

const key = (k: Partial<Key> = {}) => ({ return: false, escape: false, ctrl: false, meta: false, tab: false, ...k }) as Key;

function reg(id: string, layer: Layer, order: number, bindings: Binding[], capture = false): Registration {
  return {
    id,
    layer,
    order,
    capture,
    scope: '',
    bindings,
    descriptor: bindings.map((b) => `${b.keys.join('/')}=${b.label ?? ''}`).join(','),
  };
}

describe('createKeyRouter', () => {
  it('routes a key to the highest layer first, the newest within a layer, and on when a binding returns false', () => {
    const seen: string[] = [];
    const r = createKeyRouter({ onCtrlC: () => seen.push('^C'), onChange: () => undefined });
    r.register(reg('global', 'global', 1, [{ keys: ['q'], run: () => seen.push('global q') }]));
    r.register(reg('old', 'screen', 2, [{ keys: ['q'], run: () => seen.push('old q') }]));
    const passOn = () => {
      seen.push('new q');
      return false;
    };
    r.register(reg('new', 'screen', 3, [{ keys: ['q'], run: passOn }]));
    expect(r.active().map((x) => x.id)).toEqual(['new', 'old', 'global']);
    expect(r.dispatch('q', key())).toBe(true);
    expect(seen).toEqual(['new q', 'old q']);
    expect(r.dispatch('c', key({ ctrl: true }))).toBe(true);
    expect(seen.at(-1)).toBe('^C');
  });

  it('a capturing registration swallows the keys it does not bind; text reaches a text binding', () => {
    const seen: string[] = [];
    const r = createKeyRouter({ onCtrlC: () => undefined, onChange: () => undefined });
    r.register(reg('global', 'global', 1, [{ keys: ['q'], run: () => seen.push('quit') }]));
    r.register(reg('form', 'input', 2, [{ keys: ['text'], run: (input) => seen.push(`typed ${input}`) }], true));
    expect(r.dispatch('q', key())).toBe(true);
    expect(r.dispatch('', key({ return: true }))).toBe(false);
    expect(seen).toEqual(['typed q']);
    r.unregister('form');
    expect(r.dispatch('q', key())).toBe(true);
    expect(seen).toEqual(['typed q', 'quit']);
  });

  it('signals a change when what the hints show changes, not when the same registration comes again', () => {
    let changes = 0;
    const r = createKeyRouter({ onCtrlC: () => undefined, onChange: () => changes++ });
    const a = reg('a', 'screen', 1, [{ keys: ['c'], label: 'cancel', run: () => undefined }]);
    r.register(a);
    r.register({ ...a, bindings: [{ keys: ['c'], label: 'cancel', run: () => 'other closure' }] });
    expect(changes).toBe(1);
    r.register(reg('a', 'screen', 1, [{ keys: ['c'], label: 'close', run: () => undefined }]));
    expect(changes).toBe(2);
    r.unregister('missing');
    r.unregister('a');
    expect(changes).toBe(3);
  });
});
