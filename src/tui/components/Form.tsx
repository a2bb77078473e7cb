/**
 * A form of text and choice fields. Controlled: the parent owns `values`, so what the operator typed survives
 * an error (keep the form open and show the error in the status line). While active the form captures every
 * key: typing `q` or `j` types it. Enter moves to the next field and submits on the last; Tab/↓ and S-Tab/↑
 * move; ←/→ or Space change a choice; Esc cancels.
 */
import { Box, Text } from 'ink';
import type React from 'react';
import { useRef } from 'react';
import { useDesk } from '../desk.js';
import { fit } from '../format.js';
import { useKeys } from '../keys/useKeys.js';
import { useRefState } from '../keys/useRefState.js';
import { EDIT_KEYS, editLine, lineView } from './line-editor.js';

export interface FormField {
  name: string;
  label: string;
  /** Default 'text'. */
  kind?: 'text' | 'choice';
  /** Values of a choice field. */
  options?: readonly string[];
  /** Dim text shown in an empty text field. */
  placeholder?: string;
  /** One dim line under the field. */
  note?: string;
}

export type FormValues = Record<string, string>;

export interface FormProps {
  title: string;
  fields: readonly FormField[];
  values: FormValues;
  /** Every edit, with the name of the field edited. */
  onChange: (values: FormValues, field: string) => void;
  onSubmit: (values: FormValues) => void;
  onCancel: () => void;
  width: number;
  height: number;
  /** Hint-line label of the submitting Enter (default "submit"). */
  submitLabel?: string;
  /** Lines shown above the fields (context, e.g. the slot being booked). */
  intro?: readonly string[];
  active?: boolean;
  /**
   * Move the cursor to a field: each new `seq` moves it once (an error naming the field, back from a
   * confirmation). A form mounted with a request starts on that field. See hooks/useForm.ts.
   */
  focusRequest?: FocusRequest;
}

export interface FocusRequest {
  field: string;
  seq: number;
}

export function Form(p: FormProps) {
  const desk = useDesk();
  const indexOf = (name: string | undefined) =>
    Math.max(
      0,
      p.fields.findIndex((f) => f.name === name),
    );
  const [focus, setFocus, focusRef] = useRefState(() => indexOf(p.focusRequest?.field));
  // A new focus request moves the cursor once, before this render draws it.
  const seenRequest = useRef(p.focusRequest?.seq);
  if (p.focusRequest && p.focusRequest.seq !== seenRequest.current) {
    seenRequest.current = p.focusRequest.seq;
    if (indexOf(p.focusRequest.field) !== focusRef.current) setFocus(indexOf(p.focusRequest.field));
  }
  const [cursors, setCursors, cursorsRef] = useRefState<Record<string, number>>({});
  const active = p.active ?? true;
  // Keys may arrive faster than renders: handlers read the latest values from refs, not from props.
  const valuesRef = useRef(p.values);
  const propsSeen = useRef(p.values);
  if (propsSeen.current !== p.values) {
    propsSeen.current = p.values;
    valuesRef.current = p.values;
  }
  const change = (next: FormValues, field: string) => {
    valuesRef.current = next;
    p.onChange(next, field);
  };
  const current = () => {
    const f = p.fields[Math.min(focusRef.current, p.fields.length - 1)]!;
    const v = valuesRef.current[f.name] ?? '';
    return { f, v, cursor: Math.min(cursorsRef.current[f.name] ?? v.length, v.length), last: focusRef.current >= p.fields.length - 1 };
  };
  const field = p.fields[Math.min(focus, p.fields.length - 1)]!;
  const last = focus >= p.fields.length - 1;
  const value = p.values[field.name] ?? '';
  const cursor = Math.min(cursors[field.name] ?? value.length, value.length);
  const move = (d: number) => setFocus((f) => (f + d + p.fields.length) % p.fields.length);
  const cycle = (d: number) => {
    const { f, v } = current();
    const opts = f.options ?? [];
    if (!opts.length) return;
    const i = opts.indexOf(v);
    change({ ...valuesRef.current, [f.name]: opts[(i + d + opts.length) % opts.length]! }, f.name);
  };

  useKeys(
    [
      {
        keys: ['enter'],
        label: last ? (p.submitLabel ?? 'submit') : 'next',
        help: 'next field; on the last field submit',
        run: () => {
          if (!current().last) return move(1);
          // While a request runs (e.g. the booking this form just reviewed) the form cannot be sent again:
          // a second review and `y` would repeat a request that must not be repeated.
          if (desk.running()) return desk.info('A request is running: nothing more was sent. Wait for its answer (Esc abandons it).');
          // A mistake reported for an earlier submit is stale now: the submit reports its own.
          desk.clearStatus();
          p.onSubmit(valuesRef.current);
        },
      },
      { keys: ['tab', 'down'], label: 'field', help: 'next field', run: () => move(1) },
      { keys: ['shift-tab', 'up'], help: 'previous field', run: () => move(-1) },
      {
        keys: ['esc'],
        label: 'cancel',
        help: 'close the form',
        run: () => {
          // What was wrong with the form's input does not concern the view Esc goes back to.
          desk.clearStatus();
          p.onCancel();
        },
      },
      {
        keys: ['left', 'right', 'space', 'text'],
        help: field.kind === 'choice' ? 'change the choice' : undefined,
        run: (input, key) => {
          const { f } = current();
          if (f.kind !== 'choice') return false;
          if (key.leftArrow) cycle(-1);
          else if (key.rightArrow || input === ' ') cycle(1);
          else {
            // Typing the first letter of an option picks it.
            const hit = (f.options ?? []).find((o) => o.toLowerCase().startsWith(input.toLowerCase()));
            if (hit) change({ ...valuesRef.current, [f.name]: hit }, f.name);
          }
        },
      },
      {
        keys: [...EDIT_KEYS],
        help: 'edit the text (←→ Home End, Bksp, ^U ^K ^W)',
        run: (input, key) => {
          const { f, v, cursor: c } = current();
          if (f.kind === 'choice') return false;
          const next = editLine({ value: v, cursor: c }, input, key);
          if (!next) return false;
          setCursors((all) => ({ ...all, [f.name]: next.cursor }));
          if (next.value !== v) change({ ...valuesRef.current, [f.name]: next.value }, f.name);
        },
      },
    ],
    { layer: 'input', capture: true, active },
  );

  const labelW = Math.min(18, Math.max(...p.fields.map((f) => f.label.length)) + 1);
  const inputW = Math.max(4, p.width - labelW - 5);
  const lines: React.ReactNode[] = [
    <Text key="title" bold wrap="truncate">
      {fit(p.title, p.width)}
    </Text>,
  ];
  for (const [i, l] of (p.intro ?? []).entries())
    lines.push(
      <Text key={`intro${i}`} dimColor wrap="truncate">
        {fit(l, p.width)}
      </Text>,
    );
  lines.push(<Text key="gap"> </Text>);
  p.fields.forEach((f, i) => {
    const focused = i === focus && active;
    const v = p.values[f.name] ?? '';
    let body: React.ReactNode;
    if (f.kind === 'choice') {
      body = (
        <Text>
          {(f.options ?? []).map((o, j) => (
            <Text key={o} inverse={o === v && focused} bold={o === v} dimColor={o !== v}>
              {j ? ' ' : ''}
              {o === v ? `[${o}]` : ` ${o} `}
            </Text>
          ))}
        </Text>
      );
    } else if (focused) {
      const [a, b, c] = lineView({ value: v, cursor: i === focus ? cursor : v.length }, inputW);
      body = (
        <Text>
          {a}
          <Text inverse>{b}</Text>
          {c}
          {!v && f.placeholder ? <Text dimColor>{fit(f.placeholder, inputW - 1)}</Text> : null}
        </Text>
      );
    } else body = v ? <Text>{fit(v, inputW)}</Text> : <Text dimColor>{fit(f.placeholder ?? '', inputW)}</Text>;
    lines.push(
      <Text key={f.name} wrap="truncate">
        <Text color={focused ? 'cyan' : undefined}>{focused ? '› ' : '  '}</Text>
        <Text bold={focused}>{fit(f.label, labelW, true)}</Text>
        {'  '}
        {body}
      </Text>,
    );
    if (f.note)
      lines.push(
        <Text key={`${f.name}-note`} dimColor wrap="truncate">
          {fit(`${' '.repeat(labelW + 4)}${f.note}`, p.width)}
        </Text>,
      );
  });
  return (
    <Box flexDirection="column" height={p.height} overflowY="hidden">
      {lines.slice(0, p.height)}
    </Box>
  );
}
