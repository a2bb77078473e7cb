/**
 * The `:` command palette: whether it is open, and what a command line does — `:slots` (any screen's command,
 * alias or unique prefix) shows that screen, `:profile <name>` switches profile (without a name: Systems),
 * `:xray` the X-ray of what the screen has selected, `:help`, `:q`.
 */
import { useState } from 'react';
import { useDesk } from '../desk.js';
import { useInspect } from '../inspect/context.js';
import { SCREENS, screenFor } from '../screens/index.js';
import type { Help } from './useHelp.js';
import type { Navigation } from './useNavigation.js';

export const NOTHING_TO_XRAY =
  'Nothing to X-ray here: select an appointment (2), a chat thread (3) or a medication request (5), then :xray or X.';

/** What Tab completes in the palette. */
export const COMMANDS = [...SCREENS.map((s) => s.command), 'xray', 'profile ', 'help', 'quit'];

export interface Palette {
  open: boolean;
  show(): void;
  /** The palette closes; a line (Enter, not Esc) is run. */
  done(line: string | undefined): void;
}

export function usePalette(o: { nav: Navigation; help: Help; quit: () => void }): Palette {
  const desk = useDesk();
  const inspect = useInspect()!;
  const [open, setOpen] = useState(false);
  const { nav } = o;

  const run = (line: string) => {
    const [cmd = '', ...rest] = line.trim().replace(/^:/, '').split(/\s+/);
    const arg = rest.join(' ');
    if (!cmd) return;
    if (cmd === 'q' || cmd === 'quit') return o.quit();
    if (cmd === 'profile' || cmd === 'ctx') {
      // Without a name: the Systems screen lists every profile (Enter switches).
      if (!arg) return nav.show('systems');
      if (arg === desk.profile.name) return desk.info(`Already on profile ${arg}.`);
      void desk.switchProfile(arg);
      return;
    }
    if (cmd === 'help') return o.help.open();
    if (cmd === 'xray' || cmd === 'x-ray') {
      if (!inspect.xrayOf(nav.currentNow())) desk.error(NOTHING_TO_XRAY);
      return;
    }
    const s = screenFor(cmd);
    if (s) return nav.show(s.id);
    desk.error(`Unknown command :${cmd} (try ${SCREENS.map((x) => `:${x.command}`).join(', ')}, :xray, :profile <name>, :q).`);
  };

  return {
    open,
    show: () => setOpen(true),
    done: (line) => {
      setOpen(false);
      if (line !== undefined) run(line);
    },
  };
}
