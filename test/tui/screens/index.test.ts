/** The screen table and the palette's lookup (src/tui/screens/index.ts). */
import { describe, expect, it } from 'vitest';
import { SCREENS, screenFor } from '../../../src/tui/screens/index.js';

describe('screenFor', () => {
  it('finds a screen by command, alias, digit or unique prefix, and nothing for an ambiguous or unknown one', () => {
    expect(SCREENS.map((s) => s.key)).toEqual(['0', '1', '2', '3', '4', '5', '6']);
    expect(screenFor('0')?.id).toBe('systems');
    expect(screenFor('sys')?.id).toBe('systems');
    expect(screenFor('check')?.id).toBe('check');
    expect(screenFor('6')?.id).toBe('check');
    expect(SCREENS.filter((s) => s.acrossProfiles).map((s) => s.id)).toEqual(['systems']);
    expect(screenFor(':slots'.slice(1))?.id).toBe('slots');
    expect(screenFor('appt')?.id).toBe('appointments');
    expect(screenFor('3')?.id).toBe('chat');
    expect(screenFor(' Me ')?.id).toBe('meds');
    expect(screenFor('no')?.id).toBe('notify');
    expect(screenFor('')).toBeUndefined();
    expect(screenFor('x')).toBeUndefined();
    expect(screenFor('c')?.id).toBe('chat'); // an alias wins over the prefix shared with check
  });
});
