/** The screen table and the palette's lookup (src/tui/screens/index.ts). */
import { describe, expect, it } from 'vitest';
import { SCREENS, screenFor } from '../../../src/tui/screens/index.js';

describe('screenFor', () => {
  it('finds a screen by command, alias, digit or unique prefix, and nothing for an ambiguous or unknown one', () => {
    expect(SCREENS.map((s) => s.key)).toEqual(['1', '2', '3', '4', '5']);
    expect(screenFor(':slots'.slice(1))?.id).toBe('slots');
    expect(screenFor('appt')?.id).toBe('appointments');
    expect(screenFor('3')?.id).toBe('chat');
    expect(screenFor(' Me ')?.id).toBe('meds');
    expect(screenFor('no')?.id).toBe('notify');
    expect(screenFor('')).toBeUndefined();
    expect(screenFor('x')).toBeUndefined();
  });
});
