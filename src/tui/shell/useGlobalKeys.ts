/**
 * The keys of every screen (the global layer, below the screen's own): 0–6 show a screen, `:` opens the
 * palette, `?` the help, Esc goes back to the previous screen, q quits; and the keys no screen took are said,
 * not ignored (k9s-like).
 */
import { useDesk } from '../desk.js';
import type { Binding } from '../keys/router.js';
import { useKeys } from '../keys/useKeys.js';
import { SCREENS } from '../screens/index.js';
import type { Help } from './useHelp.js';
import type { Navigation } from './useNavigation.js';
import { NOTHING_TO_XRAY, type Palette } from './usePalette.js';

export function useGlobalKeys(o: { nav: Navigation; help: Help; palette: Palette; quit: () => void }): void {
  const desk = useDesk();
  const { nav, help, palette } = o;
  const keys: Binding[] = [
    ...SCREENS.map<Binding>((s, i) => ({
      keys: [s.key],
      helpKeys: i === 0 ? `${SCREENS[0]!.key}–${SCREENS[SCREENS.length - 1]!.key}` : undefined,
      help: i === 0 ? `screens: ${SCREENS.map((x) => x.title).join(', ')}` : undefined,
      run: () => nav.show(s.id),
    })),
    {
      keys: [':'],
      label: 'cmd',
      help: `command palette: ${SCREENS.map((s) => `:${s.command}`).join(' ')} :xray :profile <name> :q`,
      run: palette.show,
    },
    { keys: ['?'], label: 'help', help: 'this help', run: help.open },
    { keys: ['esc'], help: 'back (to the previous screen)', run: nav.back },
    { keys: ['q'], label: 'quit', help: 'quit', run: () => o.quit() },
    { keys: ['X'], run: () => desk.error(NOTHING_TO_XRAY) },
    { keys: ['y'], run: () => desk.info('Nothing to show raw here: select a row of a list, then y.') },
    {
      keys: ['text'],
      run: (input) => {
        // A run of keys (a paste) goes back to be read key by key.
        if ([...input].length !== 1) return false;
        desk.info(`${input === ' ' ? 'Space' : input} does nothing here: ? lists the keys of this screen.`);
      },
    },
  ];
  useKeys(keys, { layer: 'global' });
}
