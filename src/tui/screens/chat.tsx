/**
 * Chat screen: the threads of the local thread store (src/core/threads) with unread counts, updating live as
 * pushes arrive (the receiver of `tui --listen` / `--sandbox`, or a `pdesk listen` elsewhere writing the same
 * store); a thread view (messages in order with direction, time, sender, text, read state); `c` compose and
 * send (C1 or C3: answering the party of the thread's last incoming message, see chat-reply.ts), recorded in
 * the store once the server acknowledged it; `m` marks the selected received message read (C2); `x` closes
 * the chat (C4) after a confirmation; `n` a message in any thread (a new one too). Every call runs through
 * desk.run (progress, Esc abandons, errors in the status line with the form kept).
 */
import { Box, Text } from 'ink';
import type React from 'react';
import { useMemo, useRef, useState } from 'react';
import { buildChatMessage, buildEncounterClose, buildReadMarker } from '../../core/api/chat.js';
import { UsageError } from '../../core/errors.js';
import { type ChatCommunication, type EncounterClose, threadOf } from '../../core/schemas/chat.js';
import { type ChatOp, type StoreRecord, type ThreadMessage, type ThreadSummary, describeRecord } from '../../core/threads/index.js';
import { NotRecordedError, closeRecorded, markReadRecorded, sendRecorded } from '../../core/threads/recorded.js';
import { sanitize } from '../../core/sanitize.js';
import { Confirm } from '../components/Confirm.js';
import { Form, type FormValues } from '../components/Form.js';
import { ListView } from '../components/ListView.js';
import { Pane } from '../components/Pane.js';
import { useDesk } from '../desk.js';
import { clean, fit, jsonLines, wrap } from '../format.js';
import { useKeys } from '../keys.js';
import {
  MESSAGE_HEADER,
  messageWidths,
  THREAD_HEADER,
  THREAD_WIDTHS,
  headerLine,
  messageRow,
  midTime,
  shortTime,
  threadRow,
} from './chat-format.js';
import { buildReply, partyLabel, replyPlan } from './chat-reply.js';
import { referenceLabel } from '../../core/labels.js';

const refLabel = (r: { reference?: string; display?: string } | undefined) => referenceLabel(r) || '?';
import { useThreadStore } from './chat-store.js';
import type { ScreenProps } from './types.js';

type Step = 'threads' | 'thread' | 'compose' | 'new' | 'close';

interface CloseRequest {
  thread: string;
  body: EncounterClose;
  back: Step;
}

const NEW_AS = ['portal (C1)', 'practice (C3)'] as const;
const EMPTY_NEW: FormValues = { thread: '', as: NEW_AS[0], sender: '', recipient: '', subject: '', topic: '', text: '' };

/** A builder's error in the words of this screen (its messages name command-line options). */
function formError(e: unknown): unknown {
  if (e instanceof UsageError && /^--\w/.test(e.message))
    return new UsageError(
      e.message.replace(/^--(\w+)/, (_, n: string) => n.charAt(0).toUpperCase() + n.slice(1)),
      e.details,
    );
  return e;
}

const lastLine = (r: StoreRecord | undefined) =>
  r ? `last push ${shortTime(r.at)}: ${describeRecord(r).split(' ').slice(1).join(' ')}` : '';

export function ChatScreen({ width, height }: ScreenProps) {
  const desk = useDesk();
  const { client, profile } = desk;
  const threads = useThreadStore();
  const store = threads.store;
  const [step, setStep] = useState<Step>('threads');
  const [selThread, setSelThread] = useState<ThreadSummary | undefined>();
  const [open, setOpen] = useState<string | undefined>();
  const [selMsg, setSelMsg] = useState<ThreadMessage | undefined>();
  const [compose, setCompose] = useState<FormValues>({ text: '', topic: '' });
  const [composeFor, setComposeFor] = useState<string | undefined>();
  const [fresh, setFresh] = useState<FormValues>(EMPTY_NEW);
  const [newBack, setNewBack] = useState<Step>('threads');
  const [closing, setClosing] = useState<CloseRequest | undefined>();

  // biome-ignore lint/correctness/useExhaustiveDependencies: the store's view changes in place; threads.version says when
  const summaries = useMemo(() => (store && threads.loaded ? store.view.threads : []), [store, threads.version, threads.loaded]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the store's view changes in place; threads.version says when
  const messages = useMemo(() => (store && open ? (store.view.messages(open) ?? []) : []), [store, open, threads.version]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the store's view changes in place; threads.version says when
  const summary = useMemo(() => (store && open ? store.view.summary(open) : undefined), [store, open, threads.version]);
  const plan = useMemo(() => replyPlan(messages), [messages]);
  const unreadTotal = summaries.reduce((n, t) => n + t.unread, 0);
  // The selected message as the view has it now (its read state changes under it).
  const current = selMsg ? (messages.find((m) => m.id === selMsg.id) ?? selMsg) : undefined;

  /** The store to record in; without one nothing is sent (what the server acknowledged must be recorded). */
  const recordingStore = () => {
    if (!store) desk.error(`Nothing was sent: ${threads.problem ?? 'the thread store is not open.'}`);
    return store;
  };

  /** A message on its way (sent and being recorded): Enter pressed twice must not send it twice. */
  const sending = useRef(false);
  const send = async (op: ChatOp, body: ChatCommunication): Promise<boolean> => {
    if (sending.current) return false;
    const st = recordingStore();
    if (!st) return false;
    sending.current = true;
    try {
      const thread = threadOf(body);
      const r = await desk.run(
        op === 'C1' ? `Sending to the practice system (C1) in ${clean(thread)}` : `Sending to the portal (C3) in ${clean(thread)}`,
        (signal) => sendRecorded(client, st, op, body, { signal }),
        { sends: true },
      );
      // Sent but not recorded: the server has it, so the form must not invite sending it again.
      if (!r.ok) return r.error instanceof NotRecordedError;
      desk.ok(`Sent ${op} in ${clean(thread)} (HTTP ${r.value.status}), recorded: ${clean(body.id)}.`);
      return true;
    } finally {
      sending.current = false;
    }
  };

  const openCompose = () => {
    if (!open) return;
    if (store?.view.isClosed(open)) return desk.error(`Chat ${clean(open)} is closed: it accepts no new messages.`);
    if (!plan) return desk.error(`Thread ${clean(open)} has no message to answer: use n to write one.`);
    if (composeFor !== open) {
      setCompose({ text: '', topic: plan.topic ?? '' });
      setComposeFor(open);
    }
    setStep('compose');
  };

  const submitCompose = async (v: FormValues) => {
    if (!plan) return;
    const text = v.text ?? '';
    if (!text.trim()) return desk.error('Text must not be empty.');
    let body: ChatCommunication;
    try {
      body = buildReply(profile, plan, text, (v.topic ?? '').trim() || undefined);
    } catch (e) {
      return desk.error(formError(e));
    }
    if (await send(plan.op, body)) {
      setCompose({ text: '', topic: v.topic ?? '' });
      setStep('thread');
    }
  };

  const openNew = () => {
    const thread = (step === 'thread' ? open : selThread?.thread) ?? '';
    setFresh((f) => ({ ...f, thread: thread || f.thread }));
    setNewBack(step);
    setStep('new');
  };

  const submitNew = async (v: FormValues) => {
    const thread = (v.thread ?? '').trim();
    if (!thread) return desk.error('Thread must name the encounter id of the chat, e.g. enc-100.');
    if (!(v.text ?? '').trim()) return desk.error('Text must not be empty.');
    if (store?.view.isClosed(thread)) return desk.error(`Chat ${clean(thread)} is closed: it accepts no new messages.`);
    const op: ChatOp = v.as === NEW_AS[1] ? 'C3' : 'C1';
    let body: ChatCommunication;
    try {
      body = buildChatMessage(profile, {
        thread,
        text: v.text ?? '',
        sender: (v.sender ?? '').trim(),
        recipient: (v.recipient ?? '').trim(),
        subject: (v.subject ?? '').trim(),
        topic: (v.topic ?? '').trim() || undefined,
      });
    } catch (e) {
      return desk.error(formError(e));
    }
    if (await send(op, body)) {
      setFresh((f) => ({ ...f, text: '' }));
      setOpen(thread);
      setSelMsg(undefined);
      setStep('thread');
    }
  };

  const markSelected = async () => {
    const m = current;
    if (!m) return;
    if (m.via !== 'received') return desk.error('Only a received message can be marked read; this one was sent from here.');
    if (m.read) return desk.info(`Message ${clean(m.id)} is already marked read (${clean(m.readAt)}).`);
    let marker: ReturnType<typeof buildReadMarker>;
    try {
      marker = buildReadMarker(profile);
    } catch (e) {
      return desk.error(e);
    }
    const st = recordingStore();
    if (!st) return;
    const r = await desk.run(`Marking ${clean(m.id)} read (C2)`, (signal) =>
      markReadRecorded(client, st, m.id, marker, m.thread, { signal }),
    );
    if (r.ok) desk.ok(`Marked ${clean(m.id)} read (HTTP ${r.value.status}); recorded.`);
  };

  const askClose = (thread: string | undefined) => {
    if (!thread) return;
    if (store?.view.isClosed(thread)) return desk.info(`Chat ${clean(thread)} is already closed.`);
    try {
      setClosing({ thread, body: buildEncounterClose(profile, thread), back: step });
    } catch (e) {
      return desk.error(e);
    }
    setStep('close');
  };

  const doClose = async () => {
    const c = closing;
    if (!c) return;
    setStep(c.back);
    const st = recordingStore();
    if (!st) return;
    const r = await desk.run(`Closing chat ${clean(c.thread)} (C4)`, (signal) => closeRecorded(client, st, c.thread, c.body, { signal }));
    if (!r.ok && !(r.error instanceof NotRecordedError)) return;
    setClosing(undefined);
    if (r.ok) desk.ok(`Closed chat ${clean(c.thread)} (HTTP ${r.value.status}); recorded.`);
  };

  useKeys(
    [
      { keys: ['n'], label: 'new message', help: 'write a message in any thread, a new one too (C1 or C3)', run: openNew },
      {
        keys: ['x'],
        label: 'close chat',
        help: 'close the selected chat (C4), after a confirmation',
        run: () => askClose(selThread?.thread),
      },
    ],
    { active: step === 'threads' },
  );
  useKeys(
    [
      {
        keys: ['c'],
        label: plan ? `reply ${plan.op}` : 'reply',
        help: 'answer the last incoming message: C1 after a C3, C3 after a C1',
        run: openCompose,
      },
      { keys: ['m'], label: 'mark read', help: 'mark the selected received message read (C2)', run: () => void markSelected() },
      { keys: ['x'], label: 'close', help: 'close this chat (C4), after a confirmation', run: () => askClose(open) },
      { keys: ['n'], help: 'write a message with every field (C1 or C3)', run: openNew },
      {
        keys: ['esc'],
        label: 'back',
        help: 'back to the threads',
        run: () => {
          setStep('threads');
        },
      },
    ],
    { active: step === 'thread' },
  );

  const h = height;
  const receiverLine = desk.receiver
    ? `Receiving pushes (C1–C5) at ${desk.receiver.url}: threads update live.`
    : 'No receiver here (pdesk tui --listen); what pdesk listen records shows live.';

  if (threads.problem && !threads.loaded)
    return (
      <Pane
        title="Chat threads"
        color="red"
        lines={['', threads.problem, '', 'Start the TUI with a profile from the profile store, or use `pdesk chat` commands.']}
        width={width}
        height={h}
      />
    );

  const info = [
    lastLine(threads.lastPush),
    threads.warnings ? `${threads.warnings} unreadable line(s) skipped` : '',
    store ? `store ${store.path}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  // The threads list and the thread view stay mounted while hidden, so filter and selection survive a visit.
  const threadsView = (
    <Box display={step === 'threads' ? 'flex' : 'none'} flexDirection="column" height={h} overflow="hidden">
      <Text color={desk.receiver ? 'cyan' : 'gray'} wrap="truncate">
        {fit(receiverLine, width)}
      </Text>
      <Text dimColor wrap="truncate">
        {fit(sanitize(info), width) || ' '}
      </Text>
      <ListView<ThreadSummary>
        items={summaries}
        width={width}
        height={h - 2}
        title={`Chat threads${unreadTotal ? ` — ${unreadTotal} unread` : ''}`}
        header={`  ${headerLine(THREAD_HEADER, THREAD_WIDTHS, width - 2)}`}
        render={threadRow}
        itemKey={(t) => t.thread}
        onSelect={setSelThread}
        onOpen={(t) => {
          if (t.thread !== open) setSelMsg(undefined);
          setOpen(t.thread);
          setStep('thread');
        }}
        active={step === 'threads'}
        empty={
          threads.loaded
            ? 'No threads in the store yet: they appear as messages are sent (n) or pushed to the receiver.'
            : 'Reading the thread store…'
        }
      />
    </Box>
  );

  const inThread = step === 'thread' || step === 'compose';
  const formH = step === 'compose' ? 7 : 0;
  // The detail takes what the selected message needs, up to half the screen; the list the rest.
  const detail = step === 'thread' && current ? detailLines(current, width) : [];
  const detailH = step === 'compose' ? 0 : Math.min(Math.floor((h - 1) / 2), Math.max(4, detail.length + 1));
  const listH = Math.max(3, h - 1 - formH - detailH);
  const head = summary
    ? `Chat › ${clean(summary.thread)} · ${summary.status} · ${summary.messages} message${summary.messages === 1 ? '' : 's'}${summary.unread ? ` · ${summary.unread} unread` : ''}${plan?.topic ? ` · ${clean(plan.topic)}` : ''}`
    : `Chat › ${clean(open)}`;
  const threadView = open ? (
    <Box key={open} display={inThread ? 'flex' : 'none'} flexDirection="column" height={h} overflow="hidden">
      <Text color={summary?.status === 'closed' ? 'red' : 'cyan'} wrap="truncate">
        {fit(head, width)}
      </Text>
      <ListView<ThreadMessage>
        items={messages}
        width={width}
        height={listH}
        title="Messages (oldest first; times local)"
        header={`  ${headerLine(MESSAGE_HEADER, messageWidths(width - 2), width - 2)}`}
        render={messageRow}
        itemKey={(m) => m.id}
        onSelect={setSelMsg}
        active={step === 'thread'}
        empty="No messages in this thread (only its close is recorded)."
      />
      {step === 'thread' ? <MessageDetail lines={detail} width={width} height={detailH} /> : null}
      {step === 'compose' && plan ? (
        <Form
          title={`${plan.answer ? 'Answer' : 'Write'} as ${partyLabel(plan.as)} (${plan.op}) in ${clean(plan.thread)}`}
          intro={[
            clean(`To ${refLabel(plan.recipient)} from ${refLabel(plan.sender)}`),
            clean(
              `subject ${refLabel(plan.subject)} · ${plan.answer ? `answering ${plan.basis.op} ${plan.basis.id}` : 'nothing received yet: continuing as the sender of the last message'}`,
            ),
          ]}
          fields={[
            { name: 'text', label: 'Text', placeholder: 'the message' },
            { name: 'topic', label: 'Topic', placeholder: '(none)' },
          ]}
          values={compose}
          onChange={setCompose}
          onSubmit={(v) => void submitCompose(v)}
          onCancel={() => setStep('thread')}
          submitLabel={`send ${plan.op}`}
          width={width}
          height={formH}
        />
      ) : null}
    </Box>
  ) : null;

  let overlay: React.ReactNode = null;
  if (step === 'new')
    overlay = (
      <Form
        title="New chat message (C1 portal → practice system, C3 practice system → portal)"
        intro={['References: Patient/<id>, PractitionerRole/<id>. A new thread id opens a chat.']}
        fields={[
          { name: 'thread', label: 'Thread', placeholder: 'encounter id, e.g. enc-100' },
          { name: 'as', label: 'Send as', kind: 'choice', options: NEW_AS },
          { name: 'sender', label: 'Sender', placeholder: 'e.g. Patient/pat-1' },
          { name: 'recipient', label: 'Recipient', placeholder: 'e.g. PractitionerRole/1001' },
          { name: 'subject', label: 'Subject', placeholder: 'the patient, e.g. Patient/pat-1' },
          { name: 'topic', label: 'Topic', placeholder: '(optional)' },
          { name: 'text', label: 'Text', placeholder: 'the message' },
        ]}
        values={fresh}
        onChange={setFresh}
        onSubmit={(v) => void submitNew(v)}
        onCancel={() => setStep(newBack)}
        submitLabel="send"
        width={width}
        height={h}
      />
    );
  else if (step === 'close' && closing)
    overlay = (
      <Confirm
        question={`Close chat ${clean(closing.thread)}? PUT Encounter/${clean(closing.thread)} (C4); it then takes no new messages:`}
        lines={jsonLines(closing.body)}
        yesLabel="close it"
        danger
        onYes={() => void doClose()}
        onNo={() => setStep(closing.back)}
        width={width}
        height={h}
      />
    );

  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      {threadsView}
      {threadView}
      {overlay}
    </Box>
  );
}

/** The detail lines of a message (cleaned), its text wrapped to the width. */
function detailLines(m: ThreadMessage, width: number): string[] {
  const dir = `${m.op} ${m.via} · ${m.from === 'portal' ? 'portal → practice' : 'practice → portal'}`;
  const state = m.via === 'received' ? (m.read ? `read (marked ${m.readAt})` : 'unread') : m.read ? `read by them (${m.readAt})` : '';
  const when = m.sent ? `sent ${midTime(m.sent)}` : `recorded ${midTime(m.at)}`;
  const extra = [m.topic ? `topic ${m.topic}` : '', m.attachment ? `attachment ${m.attachment.title} (${m.attachment.contentType})` : '']
    .filter(Boolean)
    .join(' · ');
  return [
    clean([dir, state, when].filter(Boolean).join(' · ')),
    clean(
      `From ${m.senderDisplay ? `${m.senderDisplay} (${m.sender})` : m.sender} to ${m.recipientDisplay ? `${m.recipientDisplay} (${m.recipient})` : m.recipient} · subject ${m.subject}`,
    ),
    ...(extra ? [clean(extra)] : []),
    ...wrap(sanitize(m.text, true), Math.max(10, width - 2)).map((l) => `  ${l}`),
  ];
}

function MessageDetail({ lines, width, height }: { lines: readonly string[]; width: number; height: number }) {
  if (height <= 0) return null;
  const room = height - 1;
  const shown = lines.slice(0, room);
  if (lines.length > room && room > 0) shown[room - 1] = `${fit(shown[room - 1]!, width - 2)} …`;
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text dimColor wrap="truncate">
        {'─'.repeat(Math.max(0, width))}
      </Text>
      {shown.map((l, i) => (
        <Text key={i} wrap="truncate">
          {fit(l, width) || ' '}
        </Text>
      ))}
    </Box>
  );
}
