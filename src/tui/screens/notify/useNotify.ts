/**
 * State of the Notify screen: a notification form (email, topic, text), a confirmation showing exactly what
 * will be sent, the send (C5, practice system → portal), and this session's sent list with each one's details.
 * The steps are a stack (src/tui/steps.tsx): the form is drawn above the sent list it belongs to.
 */
import { useState } from 'react';
import { buildNotification, notificationEmail, sendNotification } from '../../../core/api/notifications.js';
import { BodyError, FieldError } from '../../../core/errors.js';
import type { Notification } from '../../../core/schemas/notification.js';
import type { Profile } from '../../../core/profile/schema.js';
import type { FormValues } from '../../components/Form.js';
import { useDesk } from '../../desk.js';
import { clean } from '../../format.js';
import { confirmation, useStepStack } from '../../steps.js';
import { useForm } from '../../hooks/useForm.js';

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

export type NotifyStep =
  | { kind: 'list' }
  /** The form, drawn above the sent list. */
  | { kind: 'edit' }
  | { kind: 'confirm'; body: Notification }
  | { kind: 'detail'; sent: SentNotification };

export const NOTIFY_FIELDS = [
  { name: 'email', label: 'Email', placeholder: "the patient's address, e.g. emma.jansen@example.org" },
  { name: 'topic', label: 'Topic', placeholder: 'e.g. Appointment reminder' },
  { name: 'text', label: 'Text', placeholder: 'the message' },
];
const EMPTY: FormValues = { email: '', topic: '', text: '' };

/** The notification body of the form; a FieldError names the field that is wrong. */
export function buildFromForm(profile: Profile, v: FormValues): Notification {
  const email = (v.email ?? '').trim();
  const topic = (v.topic ?? '').trim();
  const text = v.text ?? '';
  if (!email) throw new FieldError('email', 'must not be empty: the portal finds the patient by this address');
  if (!topic) throw new FieldError('topic', 'must not be empty');
  if (!text.trim()) throw new FieldError('text', 'must not be empty');
  try {
    return buildNotification(profile, { email, topic, text });
  } catch (e) {
    if (e instanceof BodyError && /telecom/.test(e.path)) throw new FieldError('email', `must be an email address, not "${email}"`);
    throw e;
  }
}

export function useNotify() {
  const desk = useDesk();
  const stack = useStepStack<NotifyStep>({ kind: 'list' });
  const form = useForm(NOTIFY_FIELDS, EMPTY);
  const [sent, setSent] = useState<SentNotification[]>([]);

  const review = (v: FormValues) => {
    try {
      stack.push({ kind: 'confirm', body: buildFromForm(desk.profile, v) });
    } catch (e) {
      form.fail(e);
    }
  };

  const confirm = confirmation(stack, 'confirm', form);

  const send = async () => {
    const body = confirm.take()?.body;
    if (!body) return;
    const email = notificationEmail(body);
    const r = await desk.run(`Sending the notification to ${email} (C5)`, (signal) => sendNotification(desk.client, body, { signal }), {
      sends: true,
    });
    if (!r.ok) return;
    const answer = r.value.body;
    // The server's id of the Communication: its answer's, else its Location's (decisions.md §16).
    const id = r.value.created.id;
    setSent((all) => [
      {
        n: all.length + 1,
        at: new Date(),
        email,
        topic: body.topic.text,
        text: body.payload.map((p) => p.contentString).join('\n'),
        status: r.value.status,
        id,
        body,
        answer,
      },
      ...all,
    ]);
    desk.ok(`Sent the notification to ${clean(email)} (HTTP ${r.value.status}${id ? `, id ${clean(id)}` : ''}).`);
    // Email and topic are kept for a second one to the same person; the cursor starts on Email again.
    form.restart({ ...form.values(), text: '' });
    stack.reset();
  };

  return {
    stack,
    form,
    sent,
    /** `n`/`e`: the form, as typed before. */
    write: () => stack.push({ kind: 'edit' }),
    /** `N`: the form, empty. */
    writeNew: () => {
      form.restart(EMPTY);
      stack.push({ kind: 'edit' });
    },
    review,
    unconfirm: confirm.back,
    send: () => void send(),
    show: (s: SentNotification) => stack.push({ kind: 'detail', sent: s }),
  };
}

export type Notify = ReturnType<typeof useNotify>;
