/**
 * Notify screen: write a notification (email, topic, text), see exactly what will be sent, send it (C5,
 * practice system → portal) and keep this session's sent list (Enter shows what was sent and answered).
 * The form is controlled: a refusal leaves it as typed, with the error in the status line.
 */
import { Box, Text } from 'ink';
import { useState } from 'react';
import { buildNotification, notificationEmail, sendNotification } from '../../core/api/notifications.js';
import { BodyError, UsageError } from '../../core/errors.js';
import type { Notification } from '../../core/schemas/notification.js';
import { Confirm } from '../components/Confirm.js';
import { Form, type FormValues } from '../components/Form.js';
import { ListView } from '../components/ListView.js';
import { useDesk } from '../desk.js';
import { clean, columns, fit, jsonLines } from '../format.js';
import { useKeys } from '../keys.js';
import type { ScreenProps } from './types.js';

type Step = 'list' | 'edit' | 'confirm' | 'detail';

export interface SentNotification {
  n: number;
  at: Date;
  email: string;
  topic: string;
  text: string;
  status: number;
  /** The id the portal gave it, if it answered with one. */
  id?: string;
  body: Notification;
  answer: unknown;
}

const FIELDS = [
  { name: 'email', label: 'Email', placeholder: "the patient's address, e.g. emma.jansen@example.org" },
  { name: 'topic', label: 'Topic', placeholder: 'e.g. Appointment reminder' },
  { name: 'text', label: 'Text', placeholder: 'the message' },
] as const;
const FORM_LINES = 2 + FIELDS.length + 1;
/** TIME, HTTP, EMAIL, TOPIC, TEXT: the text gets what is left. */
const widths = (width: number) => (width < 100 ? [8, 4, 24, 16, 0] : [8, 4, 30, 24, 0]);

const time = (d: Date) => d.toTimeString().slice(0, 8);
const row = (s: SentNotification, width: number) =>
  columns([time(s.at), String(s.status), clean(s.email), clean(s.topic), clean(s.text)], widths(width), width);

/** The notification body of the form, or a sentence naming the field that is wrong. */
function buildFromForm(profile: Parameters<typeof buildNotification>[0], v: FormValues): Notification {
  const email = (v.email ?? '').trim();
  const topic = (v.topic ?? '').trim();
  const text = v.text ?? '';
  if (!email) throw new UsageError('Email must not be empty: the portal finds the patient by this address.');
  if (!topic) throw new UsageError('Topic must not be empty.');
  if (!text.trim()) throw new UsageError('Text must not be empty.');
  try {
    return buildNotification(profile, { email, topic, text });
  } catch (e) {
    if (e instanceof BodyError && /telecom/.test(e.path)) throw new UsageError(`Email must be an email address, not "${email}".`);
    throw e;
  }
}

export function NotifyScreen({ width, height }: ScreenProps) {
  const desk = useDesk();
  const { client, profile } = desk;
  const [step, setStep] = useState<Step>('list');
  const [values, setValues] = useState<FormValues>({ email: '', topic: '', text: '' });
  const [body, setBody] = useState<Notification | undefined>();
  const [sent, setSent] = useState<SentNotification[]>([]);
  const [shown, setShown] = useState<SentNotification | undefined>();
  /** Remounts the form (focus back on Email) after a send and for a new empty form. */
  const [formKey, setFormKey] = useState(0);

  const review = (v: FormValues) => {
    try {
      setBody(buildFromForm(profile, v));
      setStep('confirm');
    } catch (e) {
      desk.error(e);
    }
  };

  const send = async () => {
    if (!body) return;
    setStep('edit');
    const email = notificationEmail(body);
    const r = await desk.run(`Sending the notification to ${email} (C5)`, (signal) => sendNotification(client, body, { signal }), {
      sends: true,
    });
    if (!r.ok) return; // the error is in the status line; the form keeps what was typed
    const answer = r.value.body;
    const id =
      answer && typeof answer === 'object' && typeof (answer as { id?: unknown }).id === 'string'
        ? (answer as { id: string }).id
        : undefined;
    const entry: SentNotification = {
      n: sent.length + 1,
      at: new Date(),
      email,
      topic: body.topic.text,
      text: body.payload.map((p) => p.contentString).join('\n'),
      status: r.value.status,
      id,
      body,
      answer,
    };
    setSent((all) => [entry, ...all]);
    desk.ok(`Sent the notification to ${clean(email)} (HTTP ${r.value.status}${id ? `, id ${clean(id)}` : ''}).`);
    setValues((v) => ({ ...v, text: '' }));
    setFormKey((k) => k + 1);
    setBody(undefined);
    setStep('list');
  };

  useKeys(
    [
      { keys: ['n', 'e'], label: 'write', help: 'write a notification (the form keeps what was typed before)', run: () => setStep('edit') },
      {
        keys: ['N'],
        help: 'write a new notification from an empty form',
        run: () => {
          setValues({ email: '', topic: '', text: '' });
          setFormKey((k) => k + 1);
          setStep('edit');
        },
      },
    ],
    { active: step === 'list' },
  );
  useKeys([{ keys: ['esc'], label: 'back', help: 'back to the list', run: () => setStep('list') }], { active: step === 'detail' });

  if (step === 'confirm' && body)
    return (
      <Confirm
        question={`Send? POST ${clean(profile.portal.baseUrl.replace(/\/+$/, ''))}/Communication (C5):`}
        lines={[
          clean(`To ${notificationEmail(body)} · topic ${body.topic.text}`),
          ...body.payload.map((p) => clean(`Text: ${p.contentString}`)),
          '',
          ...jsonLines(body),
        ]}
        yesLabel="send"
        onYes={() => void send()}
        onNo={() => setStep('edit')}
        width={width}
        height={height}
      />
    );
  if (step === 'detail' && shown)
    return (
      <ScrollText
        title={`Notification ${shown.n} sent at ${time(shown.at)} (HTTP ${shown.status}${shown.id ? `, id ${clean(shown.id)}` : ''})`}
        lines={[
          clean(`To ${shown.email} · topic ${shown.topic}`),
          clean(`Text: ${shown.text}`),
          '',
          'As sent:',
          ...jsonLines(shown.body),
          ...(shown.answer !== undefined ? ['', 'The portal answered:', ...jsonLines(shown.answer)] : []),
        ]}
        width={width}
        height={height}
      />
    );

  const editing = step === 'edit';
  const listH = Math.max(3, height - FORM_LINES - 1);
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Form
        key={formKey}
        title={editing ? `New notification (C5) to ${clean(profile.name)}'s portal` : `New notification (C5) — n to write`}
        fields={FIELDS}
        values={values}
        onChange={setValues}
        onSubmit={review}
        onCancel={() => setStep('list')}
        submitLabel="review"
        active={editing}
        width={width}
        height={FORM_LINES}
      />
      <Text dimColor wrap="truncate">
        {fit('─'.repeat(width), width)}
      </Text>
      <ListView<SentNotification>
        items={sent}
        width={width}
        height={listH}
        title={`Sent this session (${sent.length})`}
        header={`  ${columns(['TIME', 'HTTP', 'EMAIL', 'TOPIC', 'TEXT'], widths(width - 2), width - 2)}`}
        render={row}
        itemKey={(s) => String(s.n)}
        onOpen={(s) => {
          setShown(s);
          setStep('detail');
        }}
        openLabel="show"
        active={!editing}
        empty="Nothing sent yet in this session. n: write a notification."
      />
    </Box>
  );
}

/** Lines under a title, scrolled with ↑↓ j k PgUp PgDn (Esc is the caller's). */
function ScrollText(p: { title: string; lines: readonly string[]; width: number; height: number }) {
  const [top, setTop] = useState(0);
  const room = Math.max(1, p.height - 2);
  const maxTop = Math.max(0, p.lines.length - room);
  const scroll = (d: number) => setTop((t) => Math.max(0, Math.min(maxTop, t + d)));
  useKeys([
    { keys: ['down', 'j'], label: 'scroll', help: 'scroll down', run: () => scroll(1) },
    { keys: ['up', 'k'], help: 'scroll up', run: () => scroll(-1) },
    { keys: ['pgdn', 'space'], help: 'scroll a page down', run: () => scroll(room) },
    { keys: ['pgup'], help: 'scroll a page up', run: () => scroll(-room) },
  ]);
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
