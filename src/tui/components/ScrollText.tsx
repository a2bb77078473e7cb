/** Lines under a title, scrolled with ↑↓ j k PgUp PgDn Space (Esc is the caller's): what was sent, and the answer. */
import { Box, Text } from 'ink';
import { useState } from 'react';
import { fit } from '../format.js';
import { useKeys } from '../keys/useKeys.js';

export function ScrollText(p: { title: string; lines: readonly string[]; width: number; height: number; active?: boolean }) {
  const [top, setTop] = useState(0);
  const room = Math.max(1, p.height - 2);
  const maxTop = Math.max(0, p.lines.length - room);
  const scroll = (d: number) => setTop((t) => Math.max(0, Math.min(maxTop, t + d)));
  useKeys(
    [
      { keys: ['down', 'j'], label: 'scroll', help: 'scroll down', run: () => scroll(1) },
      { keys: ['up', 'k'], help: 'scroll up', run: () => scroll(-1) },
      { keys: ['pgdn', 'space'], help: 'scroll a page down', run: () => scroll(room) },
      { keys: ['pgup'], help: 'scroll a page up', run: () => scroll(-room) },
    ],
    { active: p.active ?? true },
  );
  const shown = p.lines.slice(top, top + room);
  const more = p.lines.length - top - shown.length;
  return (
    <Box flexDirection="column" height={p.height} overflow="hidden">
      <Text bold color="cyan" wrap="truncate">
        {fit(p.title, p.width)}
      </Text>
      {shown.map((l, i) => (
        <Text key={i} wrap="truncate">
          {fit(l, p.width) || ' '}
        </Text>
      ))}
      {Array.from({ length: room - shown.length }, (_, i) => (
        <Text key={`pad${i}`}> </Text>
      ))}
      <Text dimColor wrap="truncate">
        {fit(
          more > 0 ? `… ${more} more lines (↓ PgDn to scroll) · Esc: back` : top > 0 ? '(↑ PgUp to scroll back) · Esc: back' : 'Esc: back',
          p.width,
        )}
      </Text>
    </Box>
  );
}
