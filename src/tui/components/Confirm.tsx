/**
 * Confirmation before anything is sent: a question, then what will be sent (e.g. the request body as JSON,
 * scrollable with ↑↓ PgUp PgDn). `y` or Enter confirms, `n` or Esc goes back. Modal: captures every key.
 */
import { Box, Text } from 'ink';
import { useState } from 'react';
import { fit } from '../format.js';
import { useKeys } from '../keys.js';

export interface ConfirmProps {
  question: string;
  /** What will be sent, one line each (already sanitised). */
  lines: readonly string[];
  /** Hint-line label of `y` (e.g. "book", "cancel it"). */
  yesLabel?: string;
  onYes: () => void;
  onNo: () => void;
  width: number;
  height: number;
  /** Red question (destructive actions). */
  danger?: boolean;
  /** Keys are active (default true); a confirmation below the top step of a screen takes none. */
  active?: boolean;
}

export function Confirm(p: ConfirmProps) {
  const [top, setTop] = useState(0);
  const room = Math.max(1, p.height - 3);
  const maxTop = Math.max(0, p.lines.length - room);
  const scroll = (d: number) => setTop((t) => Math.max(0, Math.min(maxTop, t + d)));
  useKeys(
    [
      { keys: ['y', 'enter'], label: p.yesLabel ?? 'yes', help: `${p.yesLabel ?? 'confirm'}: send it`, run: () => p.onYes() },
      { keys: ['n', 'esc'], label: 'no', help: 'go back without sending', run: () => p.onNo() },
      { keys: ['down', 'j'], help: 'scroll down', run: () => scroll(1) },
      { keys: ['up', 'k'], help: 'scroll up', run: () => scroll(-1) },
      { keys: ['pgdn'], help: 'scroll a page down', run: () => scroll(room) },
      { keys: ['pgup'], help: 'scroll a page up', run: () => scroll(-room) },
    ],
    { layer: 'modal', capture: true, active: p.active ?? true },
  );
  const shown = p.lines.slice(top, top + room);
  const more = p.lines.length - top - shown.length;
  return (
    <Box flexDirection="column" height={p.height} overflowY="hidden">
      <Text bold color={p.danger ? 'red' : 'yellow'} wrap="truncate">
        {fit(p.question, p.width)}
      </Text>
      {shown.map((l, i) => (
        <Text key={i} wrap="truncate">
          {fit(`  ${l}`, p.width)}
        </Text>
      ))}
      <Text dimColor wrap="truncate">
        {fit(
          `${more > 0 ? `… ${more} more lines (↓ to scroll) · ` : top > 0 ? '(↑ to scroll back) · ' : ''}y/Enter: ${p.yesLabel ?? 'yes'} · n/Esc: back`,
          p.width,
        )}
      </Text>
    </Box>
  );
}
