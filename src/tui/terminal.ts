/**
 * Terminal size and the alternate screen. Ink has no resize hook: read `stdout.rows/columns` and subscribe to
 * `resize` (DEVELOPERS.md, "Stack notes"). ink-testing-library's stdout has no `rows`; 24 is the fallback, and tests may pass
 * a fixed size through `SizeContext`.
 */
import { useStdout } from 'ink';
import { createContext, useContext, useEffect, useState } from 'react';

export interface Size {
  columns: number;
  rows: number;
}

/** A fixed size (tests, benches); when undefined the real terminal size is used. */
export const SizeContext = createContext<Size | undefined>(undefined);

const read = (s: NodeJS.WriteStream): Size => ({ columns: s.columns || 80, rows: s.rows || 24 });

export function useTerminalSize(): Size {
  const fixed = useContext(SizeContext);
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => read(stdout));
  useEffect(() => {
    if (fixed) return;
    const on = () => setSize(read(stdout));
    stdout.on('resize', on);
    return () => {
      stdout.off('resize', on);
    };
  }, [stdout, fixed]);
  return fixed ?? size;
}

export const ENTER_ALT_SCREEN = '\x1b[?1049h\x1b[H';
export const LEAVE_ALT_SCREEN = '\x1b[?1049l';
export const SHOW_CURSOR = '\x1b[?25h';
export const HIDE_CURSOR = '\x1b[?25l';
