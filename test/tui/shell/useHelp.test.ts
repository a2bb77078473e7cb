/** The `?` help's sections (src/tui/shell/useHelp.ts): the screen's keys, then everywhere's, each key once. */
import { describe, expect, it } from 'vitest';
import type { Registration } from '../../../src/tui/keys/router.js';
import { helpSections } from '../../../src/tui/shell/useHelp.js';

const run = () => undefined;
const active: Registration[] = [
  {
    id: 'list',
    order: 3,
    layer: 'screen',
    capture: false,
    scope: 'appointments',
    descriptor: '',
    bindings: [
      { keys: ['c'], label: 'cancel appt', help: 'cancel the selected appointment', run },
      { keys: ['down', 'j'], helpKeys: '↓ j', help: 'next row', run },
      { keys: ['text'], run },
    ],
  },
  {
    id: 'back',
    order: 2,
    layer: 'screen',
    capture: false,
    scope: 'appointments',
    descriptor: '',
    bindings: [
      { keys: ['c'], help: 'shadowed by the newer c', run },
      { keys: ['esc'], help: 'one step back', run },
    ],
  },
  { id: 'global', order: 1, layer: 'global', capture: false, scope: '', descriptor: '', bindings: [{ keys: ['q'], label: 'quit', run }] },
];

describe('helpSections', () => {
  it('lists the screen’s keys with their help, each key once, and the global keys under Everywhere with ^C', () => {
    expect(helpSections('Appointments', active)).toEqual([
      {
        title: 'Appointments screen',
        rows: [
          ['c', 'cancel the selected appointment'],
          ['↓ j', 'next row'],
          ['Esc', 'one step back'],
        ],
      },
      {
        title: 'Everywhere',
        rows: [
          ['q', 'quit'],
          ['^C', 'quit'],
        ],
      },
    ]);
  });
});
