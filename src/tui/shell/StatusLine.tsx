import { Text } from 'ink';
import { useEffect, useState } from 'react';
import { type DeskStatus, type StatusMessage, statusOn, useDeskStatus } from '../desk.js';
import { fit, wrap } from '../format.js';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Most lines an error in the status line may take (the rest is cut with `…`). */
const ERROR_LINES = 3;

/** The status line's text word-wrapped to `width` columns, at most `max` lines (the last cut with `…`). */
export function wrapStatus(text: string, width: number, max: number): string[] {
  const all = wrap(text, width);
  if (all.length <= max) return all;
  return [...all.slice(0, max - 1), fit(all.slice(max - 1).join(' '), width)];
}

const statusText = (s: StatusMessage) => `${s.kind === 'error' ? '✗ ' : s.kind === 'ok' ? '✓ ' : ''}${s.text}`;

/** Lines the status line needs on `screen`: an error shows whole (up to ERROR_LINES), anything else takes one. */
export function statusRows(s: DeskStatus, screen: string, width: number): number {
  const status = statusOn(s, screen);
  if (s.busy || status?.kind !== 'error') return 1;
  return wrapStatus(statusText(status), width, ERROR_LINES).length;
}

/** The desk's running task with a spinner, or the message of the screen shown (an error on up to ERROR_LINES lines). */
export function StatusLine({ width, lines = 1, screen }: { width: number; lines?: number; screen: string }) {
  const all = useDeskStatus();
  const { busy } = all;
  const status = statusOn(all, screen);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!busy) return;
    const t = setInterval(() => setTick((n) => n + 1), 120);
    return () => clearInterval(t);
  }, [busy]);
  if (busy) {
    const secs = ((Date.now() - busy.started) / 1000).toFixed(1);
    // A message said while the task runs (a key that did nothing meanwhile) shows before it.
    const said = status && status.seq > busy.since ? `${statusText(status)} · ` : '';
    return (
      <Text color="yellow" wrap="truncate">
        {fit(`${said}${SPINNER[tick % SPINNER.length]} ${busy.label}… ${secs} s  (Esc to abandon)`, width)}
      </Text>
    );
  }
  if (!status) return <Text> </Text>;
  const color = status.kind === 'error' ? 'red' : status.kind === 'ok' ? 'green' : undefined;
  return (
    <>
      {wrapStatus(statusText(status), width, lines).map((l, i) => (
        <Text key={i} color={color} wrap="truncate">
          {l || ' '}
        </Text>
      ))}
    </>
  );
}
