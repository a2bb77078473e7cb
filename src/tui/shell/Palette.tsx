import { Text } from 'ink';
import { EDIT_KEYS, type LineState, editLine, lineView } from '../components/line-editor.js';
import { fit } from '../format.js';
import { useKeys } from '../keys/useKeys.js';
import { useRefState } from '../keys/useRefState.js';
import { COMMANDS } from './usePalette.js';

/** The `:` line in place of the hints: type a command, Tab completes, Enter runs, Esc closes. */
export function Palette(p: { width: number; onDone: (line: string | undefined) => void }) {
  const [s, setS, sRef] = useRefState<LineState>({ value: '', cursor: 0 });
  useKeys(
    [
      { keys: ['enter'], label: 'run', run: () => p.onDone(sRef.current.value) },
      { keys: ['esc'], label: 'close', run: () => p.onDone(undefined) },
      {
        keys: ['tab'],
        label: 'complete',
        run: () => {
          const hit = COMMANDS.find((c) => c.startsWith(sRef.current.value.trim()));
          if (hit) setS({ value: hit, cursor: hit.length });
        },
      },
      {
        keys: [...EDIT_KEYS],
        run: (input, key) => {
          const next = editLine(sRef.current, input, key, 200);
          if (!next) return false;
          setS(next);
        },
      },
    ],
    { layer: 'modal', capture: true },
  );
  const [a, b, c] = lineView(s, Math.max(1, p.width - 2));
  const hint = COMMANDS.filter((c) => c.startsWith(s.value.trim()) && s.value.trim() !== c.trim())
    .slice(0, 6)
    .join('  ');
  return (
    <Text wrap="truncate">
      <Text color="yellow">:</Text>
      {a}
      <Text inverse>{b}</Text>
      {c}
      <Text dimColor>{fit(`   ${hint}`, Math.max(0, p.width - 2 - a.length - c.length - 1))}</Text>
    </Text>
  );
}
