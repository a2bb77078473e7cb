/**
 * Confirmation before anything is sent: a question, then what will be sent (e.g. the request body as JSON,
 * scrollable with ↑↓ PgUp PgDn). `y` or Enter confirms, `n` or Esc goes back. Modal: captures every key.
 *
 * On a production profile (the desk provides `TypedConfirmation`: the profile's name) a write is confirmed by
 * typing the profile's name and Enter, as k9s and the CLI ask: `y` alone is a letter of the answer, not a yes.
 * A wrong answer sends nothing and says so.
 */
import { Box, Text } from 'ink';
import { createContext, useContext, useState } from 'react';
import { fit, wrap } from '../format.js';
import { useKeys } from '../keys/useKeys.js';
import { useRefState } from '../keys/useRefState.js';
import { EDIT_KEYS, type LineState, editLine, lineView } from './line-editor.js';

/**
 * On production (none elsewhere): the word a write's confirmation must be typed with (the profile's name), and
 * how the confirmation is handed over: `confirmed(onYes)` runs it so that the task it starts is known to be
 * confirmed (desk.tsx: the client's confirmation hook lets that task's write pass).
 */
export const TypedConfirmation = createContext<{ word: string; confirmed: (fn: () => void) => void } | undefined>(undefined);

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
  /** Not a write (nothing is sent): `y` confirms even on production. */
  notAWrite?: boolean;
}

export function Confirm(p: ConfirmProps) {
  const required = useContext(TypedConfirmation);
  const word = p.notAWrite ? undefined : required?.word;
  const [top, setTop] = useState(0);
  const [typed, setTyped, typedRef] = useRefState<LineState>({ value: '', cursor: 0 });
  const [wrong, setWrong] = useState(false);
  // The question and the production prompt wrap (the name to type is never cut at 80 columns); the prompt takes
  // its lines and the answer one more.
  const question = wrap(p.question, p.width).slice(0, 3);
  const prompt = word
    ? wrap(
        wrong
          ? `That is not "${word}": type the profile's name exactly, or Esc to go back. Nothing was sent.`
          : `Production: type the profile's name "${word}" and Enter to ${p.yesLabel ?? 'send'} · Esc: back`,
        p.width,
      )
    : [];
  const room = Math.max(1, p.height - question.length - (word ? prompt.length + 2 : 2));
  const maxTop = Math.max(0, p.lines.length - room);
  const scroll = (d: number) => setTop((t) => Math.max(0, Math.min(maxTop, t + d)));
  const scrollKeys = [
    { keys: ['pgdn'], help: 'scroll a page down', run: () => scroll(room) },
    { keys: ['pgup'], help: 'scroll a page up', run: () => scroll(-room) },
  ];
  useKeys(
    word
      ? [
          {
            keys: ['enter'],
            label: p.yesLabel ?? 'yes',
            help: `${p.yesLabel ?? 'confirm'}: send it, once the profile's name is typed`,
            run: () => {
              if (typedRef.current.value.trim() === word) required!.confirmed(p.onYes);
              else setWrong(true);
            },
          },
          { keys: ['esc'], label: 'no', help: 'go back without sending', run: () => p.onNo() },
          { keys: ['down'], help: 'scroll down', run: () => scroll(1) },
          { keys: ['up'], help: 'scroll up', run: () => scroll(-1) },
          ...scrollKeys,
          {
            keys: [...EDIT_KEYS],
            run: (input, key) => {
              const next = editLine(typedRef.current, input, key, 200);
              if (!next) return false;
              setTyped(next);
              setWrong(false);
            },
          },
        ]
      : [
          { keys: ['y', 'enter'], label: p.yesLabel ?? 'yes', help: `${p.yesLabel ?? 'confirm'}: send it`, run: () => p.onYes() },
          { keys: ['n', 'esc'], label: 'no', help: 'go back without sending', run: () => p.onNo() },
          { keys: ['down', 'j'], help: 'scroll down', run: () => scroll(1) },
          { keys: ['up', 'k'], help: 'scroll up', run: () => scroll(-1) },
          ...scrollKeys,
        ],
    { layer: 'modal', capture: true, active: p.active ?? true },
  );
  const shown = p.lines.slice(top, top + room);
  const more = p.lines.length - top - shown.length;
  const scrollHint = more > 0 ? `… ${more} more lines (↓ to scroll)` : top > 0 ? '(↑ to scroll back)' : '';
  const [a, b, c] = lineView(typed, Math.max(1, p.width - 4));
  return (
    <Box flexDirection="column" height={p.height} overflowY="hidden">
      {question.map((l, i) => (
        <Text key={`q${i}`} bold color={p.danger ? 'red' : 'yellow'} wrap="truncate">
          {fit(l, p.width)}
        </Text>
      ))}
      {shown.map((l, i) => (
        <Text key={i} wrap="truncate">
          {fit(`  ${l}`, p.width)}
        </Text>
      ))}
      {word ? (
        <>
          <Text dimColor wrap="truncate">
            {fit(scrollHint, p.width) || ' '}
          </Text>
          {prompt.map((l, i) => (
            <Text key={`p${i}`} bold color={wrong ? 'red' : 'yellow'} wrap="truncate">
              {fit(l, p.width)}
            </Text>
          ))}
          <Text wrap="truncate">
            <Text color="yellow">{'> '}</Text>
            {a}
            <Text inverse>{b}</Text>
            {c}
          </Text>
        </>
      ) : (
        <Text dimColor wrap="truncate">
          {fit(`${scrollHint ? `${scrollHint} · ` : ''}y/Enter: ${p.yesLabel ?? 'yes'} · n/Esc: back`, p.width)}
        </Text>
      )}
    </Box>
  );
}
