/** Core's hints in the TUI's words (src/tui/hints.ts), on the status line (desk.tsx's errorText). */
import { describe, expect, it } from 'vitest';
import { NetworkError } from '../../src/core/errors.js';
import { errorText } from '../../src/tui/desk.js';
import { hintText } from '../../src/tui/hints.js';

describe('hintText', () => {
  it('points at the screen that shows a profile, and ends the status line', () => {
    expect(hintText({ kind: 'profile', profile: 'north', setting: 'portal.baseUrl' })).toBe(
      'profile "north" (portal.baseUrl): see Systems (0)',
    );
    const e = new NetworkError('Cannot reach http://x.', ['request: GET http://x/A', 'Check the portal.']).hint({
      kind: 'profile',
      profile: 'north',
    });
    expect(errorText(e)).toBe('Cannot reach http://x. · Check the portal. · profile "north": see Systems (0)');
  });
});
