import { Text } from 'ink';
import { fit } from '../format.js';
import { keyLabel } from '../keys/names.js';
import { useActiveKeys } from '../keys/useActiveKeys.js';

/** Hints that stay on a narrow terminal, whatever else gives way: how to find every key, and how to leave. */
const KEPT_HINTS = new Set(['?', 'q']);

/**
 * Labeled bindings of the topmost capture group, then the rest down to the global keys. When they do not fit,
 * the screen's hints give way (cut with `…`) before `? help` and `q quit`.
 */
export function hintText(parts: ReadonlyArray<{ keys: string; text: string }>, width: number): string {
  const all = parts.map((p) => p.text).join('  ');
  if (all.length + 1 <= width) return ` ${all}`;
  const kept = parts.filter((p) => KEPT_HINTS.has(p.keys)).map((p) => p.text);
  const tail = kept.length ? `  ${kept.join('  ')}` : '';
  const room = width - 1 - tail.length;
  let head = '';
  for (const p of parts) {
    if (KEPT_HINTS.has(p.keys) && kept.length) continue;
    const next = head ? `${head}  ${p.text}` : p.text;
    if (next.length + 3 > room) {
      head = head ? `${head}  …` : '…';
      break;
    }
    head = next;
  }
  return fit(` ${head}${tail}`, width);
}

/** The last line: the keys that take input now, with their labels. */
export function HintLine({ width }: { width: number }) {
  const active = useActiveKeys();
  const parts: Array<{ keys: string; text: string }> = [];
  const seen = new Set<string>();
  for (const r of active) {
    for (const b of r.bindings) {
      if (!b.label) continue;
      const keys = b.keys
        .filter((k) => k !== 'text')
        .map(keyLabel)
        .slice(0, 2)
        .join('/');
      if (seen.has(keys)) continue;
      seen.add(keys);
      parts.push({ keys, text: `${keys} ${b.label}` });
    }
    if (r.capture) break;
  }
  return (
    <Text dimColor wrap="truncate">
      {hintText(parts, width)}
    </Text>
  );
}
