/** The step stack every screen keeps its steps in (src/tui/steps.tsx). */
import { afterEach, describe, expect, it } from 'vitest';
import { confirmation, stackOps, useStepStack } from '../../src/tui/steps.js';
import { type RenderedHook, renderHook } from './hook-harness.js';

type Step = { kind: 'list' } | { kind: 'detail'; id: string } | { kind: 'form' } | { kind: 'confirm' };

describe('stackOps', () => {
  it('never pops the root, and popTo finds the nearest match from the top', () => {
    expect(stackOps.pop(['root'])).toEqual(['root']);
    expect(stackOps.pop(['root', 'a'])).toEqual(['root']);
    expect(stackOps.replace(['root', 'a'], 'b')).toEqual(['root', 'b']);
    expect(stackOps.popTo(['a', 'b', 'a', 'c'], (s) => s === 'a')).toEqual(['a', 'b', 'a']);
    expect(stackOps.popTo(['a', 'b'], (s) => s === 'z')).toBeUndefined();
  });
});

describe('useStepStack', () => {
  let h: RenderedHook<ReturnType<typeof useStepStack<Step>>> | undefined;
  afterEach(() => h?.unmount());

  it('pushes, pops to the root and no further, replaces, and reads the latest stack between renders', async () => {
    h = renderHook(() => useStepStack<Step>({ kind: 'list' }));
    const s = h.current;
    s.push({ kind: 'detail', id: 'a' });
    s.push({ kind: 'form' });
    // Between renders (keys faster than Ink draws): current() already sees the form.
    expect(s.current().kind).toBe('form');
    s.push({ kind: 'confirm' });
    expect(s.popTo((x) => x.kind === 'detail')).toBe(true);
    expect(s.current()).toEqual({ kind: 'detail', id: 'a' });
    await h.until(() => expect(h!.current.steps.map((x) => x.kind)).toEqual(['list', 'detail']));
    expect(h.current.top).toEqual({ kind: 'detail', id: 'a' });
    expect(s.popTo((x) => x.kind === 'confirm')).toBe(false);
    expect(s.pop()).toBe(true);
    expect(s.pop()).toBe(false); // the root stays
    s.replace({ kind: 'form' });
    expect(s.has((x) => x.kind === 'list')).toBe(false);
    s.reset({ kind: 'list' });
    s.push({ kind: 'detail', id: 'b' });
    await h.until(() => expect(h!.current.steps).toEqual([{ kind: 'list' }, { kind: 'detail', id: 'b' }]));
  });
});

describe('confirmation', () => {
  let h: RenderedHook<ReturnType<typeof useStepStack<Step>>> | undefined;
  afterEach(() => h?.unmount());

  it('n goes back to the form and to the field to fix; y takes the confirmation only when it is on top', () => {
    h = renderHook(() => useStepStack<Step>({ kind: 'list' }));
    const s = h.current;
    let refocused = 0;
    const c = confirmation(s, 'confirm', { refocus: () => refocused++ });
    s.push({ kind: 'form' });
    expect(c.take()).toBeUndefined();
    expect(s.current().kind).toBe('form');
    s.push({ kind: 'confirm' });
    c.back();
    expect([s.current().kind, refocused]).toEqual(['form', 1]);
    s.push({ kind: 'confirm' });
    expect(c.take()).toEqual({ kind: 'confirm' });
    expect([s.current().kind, refocused]).toEqual(['form', 2]);
  });
});
