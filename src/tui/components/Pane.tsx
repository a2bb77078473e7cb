/** A titled block of text lines, cut to the width and height (details, placeholders, notices). */
import { Box, Text } from 'ink';
import { fit } from '../format.js';

export interface PaneProps {
  title?: string;
  lines: readonly string[];
  width: number;
  height: number;
  /** Colour of the title. */
  color?: string;
}

export function Pane(p: PaneProps) {
  const room = Math.max(0, p.height - (p.title !== undefined ? 1 : 0));
  return (
    <Box flexDirection="column" height={p.height} overflowY="hidden">
      {p.title !== undefined ? (
        <Text bold color={p.color} wrap="truncate">
          {fit(p.title, p.width)}
        </Text>
      ) : null}
      {p.lines.slice(0, room).map((l, i) => (
        <Text key={i} wrap="truncate">
          {fit(l, p.width) || ' '}
        </Text>
      ))}
    </Box>
  );
}
