/**
 * State of the Chat screen: the threads of the local thread store (live, src/tui/hooks/useThreadStore.ts), a
 * thread's messages, and the writes — a reply (C1 or C3, answering the party of the thread's last incoming
 * message, reply.ts) or a message with every field, each reviewed in a confirmation before it is sent; mark
 * read (C2); close (C4) after a confirmation. The steps are a stack (src/tui/steps.tsx); the writes are
 * recorded in the store (useChatWrites.ts).
 */
import { useMemo } from 'react';
import { buildChatMessage, buildEncounterClose } from '../../../core/api/chat.js';
import { dialectOf } from '../../../core/api/dialect.js';
import { FieldError } from '../../../core/errors.js';
import type { ChatCommunication, EncounterClose } from '../../../core/schemas/chat.js';
import type { ChatOp, ThreadMessage, ThreadSummary } from '../../../core/threads/index.js';
import type { FormValues } from '../../components/Form.js';
import { useDesk } from '../../desk.js';
import { clean } from '../../format.js';
import { useJump } from '../../inspect/context.js';
import { useRefState } from '../../keys/useRefState.js';
import { buildReply, replyPlan } from './reply.js';
import { useStepStack } from '../../steps.js';
import { useChatWrites } from './useChatWrites.js';
import { useForm } from '../../hooks/useForm.js';
import { useThreadStore } from '../../hooks/useThreadStore.js';

export type ChatStep =
  | { kind: 'threads' }
  | { kind: 'thread'; thread: string }
  /** The reply form, drawn under the thread it answers. */
  | { kind: 'compose'; thread: string }
  /** A message with every field. */
  | { kind: 'new' }
  /** The review of a message before it is sent (from the reply form or the new-message form). */
  | { kind: 'send'; op: ChatOp; body: ChatCommunication }
  /** `body` is undefined under the r4 dialect: the Encounter is read at the close and put back finished. */
  | { kind: 'close'; thread: string; body?: EncounterClose };

export const NEW_AS = ['portal (C1)', 'practice (C3)'] as const;
export const COMPOSE_FIELDS = [
  { name: 'text', label: 'Text', placeholder: 'the message' },
  { name: 'topic', label: 'Topic', placeholder: '(none)' },
];
export const NEW_FIELDS = [
  { name: 'thread', label: 'Thread', placeholder: 'encounter id, e.g. enc-100' },
  { name: 'as', label: 'Send as', kind: 'choice' as const, options: NEW_AS },
  { name: 'sender', label: 'Sender', placeholder: 'e.g. Patient/pat-1' },
  { name: 'recipient', label: 'Recipient', placeholder: 'e.g. PractitionerRole/1001' },
  { name: 'subject', label: 'Subject', placeholder: 'the patient, e.g. Patient/pat-1' },
  { name: 'topic', label: 'Topic', placeholder: '(optional)' },
  { name: 'text', label: 'Text', placeholder: 'the message' },
];
const EMPTY_NEW: FormValues = { thread: '', as: NEW_AS[0], sender: '', recipient: '', subject: '', topic: '', text: '' };

const notEmpty = (field: string, v: string | undefined) => {
  if (!(v ?? '').trim()) throw new FieldError(field, 'must not be empty');
};

export function useChat() {
  const desk = useDesk();
  const threads = useThreadStore();
  const { store, snapshot } = threads;
  const writes = useChatWrites(store, threads.problem);
  const stack = useStepStack<ChatStep>({ kind: 'threads' });
  const [selThread, setSelThread, selThreadRef] = useRefState<ThreadSummary | undefined>(undefined);
  const [selMsg, setSelMsg, selMsgRef] = useRefState<ThreadMessage | undefined>(undefined);
  const [, setComposeFor, composeFor] = useRefState<string | undefined>(undefined);
  const compose = useForm(COMPOSE_FIELDS, { text: '', topic: '' });
  const fresh = useForm(NEW_FIELDS, EMPTY_NEW);

  /** The thread shown: the nearest thread step of the stack. */
  const open = [...stack.steps].reverse().find((s) => s.kind === 'thread' || s.kind === 'compose') as { thread: string } | undefined;
  const openId = open?.thread;
  const summaries = useMemo(() => (snapshot && threads.loaded ? snapshot.view.threads : []), [snapshot, threads.loaded]);
  const messages = useMemo(() => (snapshot && openId ? (snapshot.view.messages(openId) ?? []) : []), [snapshot, openId]);
  const summary = useMemo(() => (snapshot && openId ? snapshot.view.summary(openId) : undefined), [snapshot, openId]);
  const plan = useMemo(() => replyPlan(messages), [messages]);
  /** The selected message as the view has it now (its read state changes under it). */
  const current = selMsg ? (messages.find((m) => m.id === selMsg.id) ?? selMsg) : undefined;
  const isClosed = (thread: string | undefined) => !!thread && !!store?.view.isClosed(thread);

  // An X-ray element (a patient's thread) opens here.
  useJump('chat', (j) => {
    if (j.screen !== 'chat') return;
    setSelMsg(undefined);
    stack.reset();
    stack.push({ kind: 'thread', thread: j.thread });
  });

  const openThread = (t: ThreadSummary) => {
    if (t.thread !== openId) setSelMsg(undefined);
    stack.push({ kind: 'thread', thread: t.thread });
  };

  /** `c` in a thread: the reply form, prefilled with the thread's topic the first time. */
  const openCompose = () => {
    const top = stack.current();
    if (top.kind !== 'thread') return;
    if (isClosed(top.thread)) return desk.error(`Chat ${clean(top.thread)} is closed: it accepts no new messages.`);
    if (!plan) return desk.error(`Thread ${clean(top.thread)} has no message to answer: use n to write one.`);
    if (composeFor.current !== top.thread) {
      compose.restart({ text: '', topic: plan.topic ?? '' });
      setComposeFor(top.thread);
    }
    stack.push({ kind: 'compose', thread: top.thread });
  };

  const reviewReply = (v: FormValues) => {
    if (!plan) return;
    try {
      notEmpty('text', v.text);
      const body = buildReply(desk.profile, plan, v.text ?? '', (v.topic ?? '').trim() || undefined);
      stack.push({ kind: 'send', op: plan.op, body });
    } catch (e) {
      compose.fail(e);
    }
  };

  /** `n`: a message in any thread, the selected or shown one prefilled. */
  const openNew = () => {
    const top = stack.current();
    const thread = (top.kind === 'thread' ? top.thread : selThreadRef.current?.thread) ?? '';
    if (thread) fresh.set((f) => ({ ...f, thread }));
    stack.push({ kind: 'new' });
  };

  const reviewNew = (v: FormValues) => {
    const thread = (v.thread ?? '').trim();
    try {
      if (!thread) throw new FieldError('thread', 'must name the encounter id of the chat, e.g. enc-100');
      notEmpty('text', v.text);
      if (isClosed(thread)) throw new FieldError('thread', `names chat ${thread}, which is closed: it accepts no new messages`);
      const body = buildChatMessage(desk.profile, {
        thread,
        text: v.text ?? '',
        sender: (v.sender ?? '').trim(),
        recipient: (v.recipient ?? '').trim(),
        subject: (v.subject ?? '').trim(),
        topic: (v.topic ?? '').trim() || undefined,
      });
      stack.push({ kind: 'send', op: v.as === NEW_AS[1] ? 'C3' : 'C1', body });
    } catch (e) {
      fresh.fail(e);
    }
  };

  /** The form a review came from. */
  const formBelow = () => (stack.steps[stack.steps.length - 2]?.kind === 'new' ? fresh : compose);

  /** `n` at a review: back to its form, on the field to fix. */
  const unconfirm = () => {
    const form = formBelow();
    stack.pop();
    form.refocus();
  };

  /** `y` at a review: the form is back while it is sent; once the server has it, the thread is shown. */
  const confirmSend = async () => {
    const top = stack.current();
    if (top.kind !== 'send') return;
    const fromNew = stack.steps[stack.steps.length - 2]?.kind === 'new';
    unconfirm();
    if (!(await writes.send(top.op, top.body))) return;
    const thread = top.body.encounter.identifier[0]!.value;
    if (fromNew) {
      fresh.set((f) => ({ ...f, text: '' }));
      setSelMsg(undefined);
      stack.reset();
      stack.push({ kind: 'thread', thread });
    } else {
      compose.set((c) => ({ ...c, text: '' }));
      stack.popTo((s) => s.kind === 'thread');
    }
  };

  /** `x`: close a chat after a confirmation. */
  const askClose = (thread: string | undefined) => {
    if (!thread) return;
    if (isClosed(thread)) return desk.info(`Chat ${clean(thread)} is already closed.`);
    try {
      const body = buildEncounterClose(desk.profile, thread); // an id the interface refuses stops here
      stack.push({ kind: 'close', thread, body: dialectOf(desk.profile) === 'r4' ? undefined : body });
    } catch (e) {
      desk.error(e);
    }
  };

  const confirmClose = async () => {
    const top = stack.current();
    if (top.kind !== 'close') return;
    stack.pop();
    await writes.close(top.thread, top.body);
  };

  return {
    stack,
    threads,
    summaries,
    messages,
    summary,
    plan,
    current,
    selected: selThread,
    forms: { compose, fresh },
    isClosed,
    selectThread: setSelThread,
    /** The resources of a thread's messages (the raw view of a thread). */
    messagesOf: (thread: string) => (snapshot?.view.messages(thread) ?? []).map((m) => m.resource),
    selectMessage: setSelMsg,
    openThread,
    openCompose,
    reviewReply,
    openNew,
    reviewNew,
    unconfirm,
    confirmSend: () => void confirmSend(),
    askClose,
    closeSelected: () => askClose(selThreadRef.current?.thread),
    closeShown: () => askClose(stack.current().kind === 'thread' ? (stack.current() as { thread: string }).thread : undefined),
    confirmClose: () => void confirmClose(),
    markSelected: () => {
      const m = selMsgRef.current && (messages.find((x) => x.id === selMsgRef.current!.id) ?? selMsgRef.current);
      if (m) void writes.markRead(m);
    },
  };
}

export type Chat = ReturnType<typeof useChat>;
