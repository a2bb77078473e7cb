/**
 * The raw view: a resource as received, as JSON with colours, scrolled with ↑↓ j k PgUp PgDn Home End g G and
 * ← → (long values), `w` writing it to a new file (mode 0600, redacted) in the current folder, Esc back.
 */
import { Box, Text } from 'ink';
import { useMemo, useState } from 'react';
import { writeJsonExport } from '../../core/export.js';
import { useDesk } from '../desk.js';
import { clean, fit, type Seg, sliceSegs } from '../format.js';
import { useKeys } from '../keys/useKeys.js';
import type { RawItem } from './context.js';
import { colorLine, rawLines } from './json.js';

export interface RawViewProps {
  item: RawItem;
  width: number;
  height: number;
  exportDir: string;
  active: boolean;
  onBack: () => void;
}

export function RawView(p: RawViewProps) {
  const desk = useDesk();
  const lines = useMemo(() => rawLines(p.item.value), [p.item]);
  const [top, setTop] = useState(0);
  const [left, setLeft] = useState(0);
  const [saved, setSaved] = useState<string | undefined>();
  const room = Math.max(1, p.height - 2);
  const maxTop = Math.max(0, lines.length - room);
  const widest = useMemo(() => lines.reduce((n, l) => Math.max(n, l.length), 0), [lines]);
  const scroll = (d: number) => setTop((t) => Math.max(0, Math.min(maxTop, t + d)));
  const shift = (d: number) => setLeft((l) => Math.max(0, Math.min(Math.max(0, widest - p.width + 4), l + d)));
  const write = () => {
    try {
      const path = writeJsonExport(p.exportDir, p.item.name, p.item.value);
      setSaved(path);
      desk.ok(`Wrote ${path} (mode 0600, secrets redacted).`);
    } catch (e) {
      desk.error(`Could not write the file in ${p.exportDir}: ${(e as Error).message}`);
    }
  };
  useKeys(
    [
      { keys: ['w'], label: 'write file', help: 'write this JSON to a new file in the current folder (mode 0600, redacted)', run: write },
      { keys: ['down', 'j'], helpKeys: '↑↓ j k', help: 'scroll', run: () => scroll(1) },
      { keys: ['up', 'k'], run: () => scroll(-1) },
      { keys: ['pgdn', 'space', 'ctrl-f'], helpKeys: 'PgUp PgDn', help: 'scroll a page', run: () => scroll(room) },
      { keys: ['pgup', 'ctrl-b'], run: () => scroll(-room) },
      { keys: ['home', 'g'], helpKeys: 'Home End g G', help: 'top and bottom', run: () => setTop(0) },
      { keys: ['end', 'G'], run: () => setTop(maxTop) },
      { keys: ['right', 'l'], helpKeys: '← → h l', help: 'scroll sideways (long values)', run: () => shift(8) },
      { keys: ['left', 'h'], run: () => shift(-8) },
      { keys: ['esc'], label: 'back', help: 'back', run: p.onBack },
    ],
    { active: p.active },
  );
  const shown = lines.slice(top, top + room);
  const pos = lines.length > room ? `${top + 1}–${top + shown.length} of ${lines.length}` : `${lines.length} lines`;
  const title = `Raw · ${clean(p.item.title)}`;
  const foot = saved ? `written to ${saved}` : 'w: write to a file · Esc: back';
  return (
    <Box flexDirection="column" height={p.height} overflowY="hidden">
      <Text bold color="cyan" wrap="truncate">
        {fit(title, Math.max(0, p.width - pos.length - 1)).padEnd(Math.max(0, p.width - pos.length))}
        {pos}
      </Text>
      {shown.map((l, i) => (
        <Line key={i} segs={sliceSegs(colorLine(l), left, p.width)} />
      ))}
      {Array.from({ length: room - shown.length }, (_, i) => (
        <Text key={`pad${i}`}> </Text>
      ))}
      <Text dimColor wrap="truncate">
        {fit(`${left ? `← col ${left + 1} · ` : ''}${foot}`, p.width)}
      </Text>
    </Box>
  );
}

export function Line({ segs }: { segs: readonly Seg[] }) {
  if (!segs.length) return <Text> </Text>;
  return (
    <Text wrap="truncate">
      {segs.map((s, i) => (
        <Text key={i} color={s.color} bold={s.bold} dimColor={s.dim}>
          {s.text}
        </Text>
      ))}
    </Text>
  );
}
