import { Box, Text } from 'ink';
import { useMemo, useState } from 'react';
import { fit } from '../format.js';
import { useKeys } from '../keys/useKeys.js';
import type { HelpSection } from './useHelp.js';

/** The `?` help over the screen: its keys, then everywhere's; scrolls, Esc (or ?, Enter) closes, q quits. */
export function HelpOverlay(p: { sections: HelpSection[]; width: number; height: number; onClose: () => void; onQuit: () => void }) {
  const lines = useMemo(() => {
    const out: Array<{ text: string; head?: boolean }> = [];
    for (const s of p.sections) {
      if (out.length) out.push({ text: '' });
      out.push({ text: s.title, head: true });
      const kw = Math.min(16, Math.max(6, ...s.rows.map(([k]) => k.length)));
      for (const [k, t] of s.rows) out.push({ text: `  ${k.padEnd(kw)}  ${t}` });
    }
    return out;
  }, [p.sections]);
  const [top, setTop] = useState(0);
  const room = Math.max(1, p.height - 1);
  const maxTop = Math.max(0, lines.length - room);
  const scroll = (d: number) => setTop((t) => Math.max(0, Math.min(maxTop, t + d)));
  useKeys(
    [
      { keys: ['esc', '?', 'enter'], label: 'close help', run: () => p.onClose() },
      // As the help says under "Everywhere".
      { keys: ['q'], label: 'quit', run: () => p.onQuit() },
      { keys: ['down', 'j'], label: 'scroll', run: () => scroll(1) },
      { keys: ['up', 'k'], run: () => scroll(-1) },
      { keys: ['pgdn'], run: () => scroll(room) },
      { keys: ['pgup'], run: () => scroll(-room) },
    ],
    { layer: 'modal', capture: true },
  );
  const shown = lines.slice(top, top + room);
  return (
    <Box flexDirection="column" height={p.height} overflowY="hidden">
      <Text bold color="cyan" wrap="truncate">
        {fit(`Help — keys${maxTop ? ` (${top + 1}–${top + shown.length} of ${lines.length}, ↑↓ to scroll)` : ''} · Esc closes it`, p.width)}
      </Text>
      {shown.map((l, i) => (
        <Text key={i} bold={l.head} wrap="truncate">
          {fit(l.text, p.width) || ' '}
        </Text>
      ))}
    </Box>
  );
}
