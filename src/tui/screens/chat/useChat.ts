/**
 * State of the Chat screen: the threads of the desk store with their owners (live, src/tui/hooks/useDeskThreads.ts;
 * `f` shows all, mine or unassigned), the open thread's messages and who else has it open (useOpenThread.ts), and the
 * writes — a reply (C1 or C3, answering the party of the thread's last incoming message, reply.ts) or a message with
 * every field, each reviewed in a confirmation before it is sent; mark read (C2); close (C4) after a confirmation;
 * `a` takes a thread. A team's rules (decisions.md §17): a reply to another operator's thread asks first; a reply
 * (C3) held because a message came in, another operator replied or took the thread after the form was opened is
 * shown with what changed, and the operator confirms again. The steps are a stack (src/tui/steps.tsx); the writes
 * are recorded in the store (useChatWrites.ts).
 */
import { useMemo, useState } from 'react';
import { buildChatMessage, buildEncounterClose } from '../../../core/api/chat.js';
import { dialectOf } from '../../../core/api/dialect.js';
import { FieldError } from '../../../core/errors.js';
import type { ChatCommunication, EncounterClose } from '../../../core/schemas/chat.js';
import type { ReplyHold } from '../../../core/store/recorded.js';
import type { ChatOp, DeskMessage, DeskThread } from '../../../core/store/types.js';
import type { FormValues } from '../../components/Form.js';
import { useDesk } from '../../desk.js';
import { clean } from '../../format.js';
import { useForm } from '../../hooks/useForm.js';
import { useDeskThreads } from '../../hooks/useDeskThreads.js';
import { useJump } from '../../inspect/context.js';
import { useRefState } from '../../keys/useRefState.js';
import { useStepStack } from '../../steps.js';
import { buildReply, replyPlan } from './reply.js';
import { useChatWrites } from './useChatWrites.js';
import { useOpenThread } from './useOpenThread.js';

/** Where a message under review came from: the reply form under a thread, or the new-message form. */
type From = 'compose' | 'new';

export type ChatStep =
  | { kind: 'threads' }
  | { kind: 'thread'; thread: string }
  /** The reply form, drawn under the thread it answers. */
  | { kind: 'compose'; thread: string }
  /** A message with every field. */
  | { kind: 'new' }
  /** The review of a message before it is sent; a C3 carries the point its form was opened at. */
  | { kind: 'send'; op: ChatOp; body: ChatCommunication; from: From; after: number; force: boolean }
  /** A reply the store held: what changed, and the question to send it all the same. */
  | { kind: 'held'; op: ChatOp; body: ChatCommunication; from: From; after: number; force: boolean; hold: ReplyHold }
  /** Another operator owns the thread: asked before a reply is written, or before it is taken. */
  | { kind: 'owned'; thread: string; owner: string; to: 'reply' | 'take' }
  /** `body` is undefined under the r4 dialect: the Encounter is read at the close and put back finished. */
  | { kind: 'close'; thread: string; body?: EncounterClose };

export const THREAD_FILTERS = ['all', 'mine', 'unassigned'] as const;
export type ThreadFilterName = (typeof THREAD_FILTERS)[number];

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

/** The newest message's position among `messages` (what the operator sees of the thread). */
const newestSeq = (messages: readonly DeskMessage[], floor = 0) => messages.reduce((max, m) => Math.max(max, m.seq), floor);

export function useChat() {
  const desk = useDesk();
  const threads = useDeskThreads();
  const writes = useChatWrites(threads);
  const stack = useStepStack<ChatStep>({ kind: 'threads' });
  const [filter, setFilter] = useState<ThreadFilterName>('all');
  const [selThread, setSelThread, selThreadRef] = useRefState<DeskThread | undefined>(undefined);
  const [selMsg, setSelMsg, selMsgRef] = useRefState<DeskMessage | undefined>(undefined);
  /** The reply form's thread, and the point and answer to the owner question it was opened with. */
  const [, setComposeFor, composeFor] = useRefState<{ thread: string; after: number; force: boolean } | undefined>(undefined);
  const compose = useForm(COMPOSE_FIELDS, { text: '', topic: '' });
  const fresh = useForm(NEW_FIELDS, EMPTY_NEW);

  /** The thread shown: the nearest thread step of the stack. */
  const open = [...stack.steps].reverse().find((s) => s.kind === 'thread' || s.kind === 'compose') as { thread: string } | undefined;
  const openId = open?.thread;
  const shown = useOpenThread(threads, openId);
  const byId = useMemo(() => new Map(threads.threads.map((t) => [t.thread, t])), [threads.threads]);
  const summaries = useMemo(() => {
    if (filter === 'mine') return threads.threads.filter((t) => t.owner === desk.operator);
    if (filter === 'unassigned') return threads.threads.filter((t) => t.owner === undefined);
    return threads.threads;
  }, [threads.threads, filter, desk.operator]);
  const messages = shown.messages;
  const summary = shown.summary ?? (openId ? byId.get(openId) : undefined);
  const plan = useMemo(() => replyPlan(messages), [messages]);
  /** The selected message as the store has it now (its read state changes under it). */
  const current = selMsg ? (messages.find((m) => m.id === selMsg.id) ?? selMsg) : undefined;
  const threadOf = (thread: string | undefined) =>
    thread === undefined ? undefined : thread === openId && summary ? summary : byId.get(thread);
  const isClosed = (thread: string | undefined) => threadOf(thread)?.status === 'closed';
  /** Another operator owns it (as shown). */
  const otherOwner = (thread: string) => {
    const owner = threadOf(thread)?.owner;
    return owner !== undefined && owner !== desk.operator ? owner : undefined;
  };

  // An X-ray element (a patient's thread) opens here.
  useJump('chat', (j) => {
    if (j.screen !== 'chat') return;
    setSelMsg(undefined);
    stack.reset();
    stack.push({ kind: 'thread', thread: j.thread });
  });

  const openThread = (t: DeskThread) => {
    if (t.thread !== openId) setSelMsg(undefined);
    stack.push({ kind: 'thread', thread: t.thread });
  };

  /** The reply form of `thread`, from the point the operator sees now; `force` once another owner was accepted. */
  const startCompose = (thread: string, force: boolean) => {
    const after = newestSeq(messages);
    if (composeFor.current?.thread !== thread) compose.restart({ text: '', topic: plan?.topic ?? '' });
    setComposeFor({ thread, after, force });
    stack.push({ kind: 'compose', thread });
  };

  /** `c` in a thread: the reply form, prefilled with the thread's topic the first time; another's thread asks first. */
  const openCompose = () => {
    const top = stack.current();
    if (top.kind !== 'thread') return;
    if (isClosed(top.thread)) return desk.error(`Chat ${clean(top.thread)} is closed: it accepts no new messages.`);
    if (!shown.loaded) return desk.info(`Thread ${clean(top.thread)} is being read: c again once its messages show.`);
    if (!plan) return desk.error(`Thread ${clean(top.thread)} has no message to answer: use n to write one.`);
    const owner = plan.op === 'C3' ? otherOwner(top.thread) : undefined;
    if (owner !== undefined) return stack.push({ kind: 'owned', thread: top.thread, owner, to: 'reply' });
    startCompose(top.thread, false);
  };

  const reviewReply = (v: FormValues) => {
    const c = composeFor.current;
    if (!plan || !c) return;
    try {
      notEmpty('text', v.text);
      const body = buildReply(desk.profile, plan, v.text ?? '', (v.topic ?? '').trim() || undefined);
      stack.push({ kind: 'send', op: plan.op, body, from: 'compose', after: c.after, force: c.force });
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
      // The point seen: the thread as the list shows it now (its messages are not open here).
      const after = thread === openId ? newestSeq(messages) : (byId.get(thread)?.lastSeq ?? 0);
      stack.push({ kind: 'send', op: v.as === NEW_AS[1] ? 'C3' : 'C1', body, from: 'new', after, force: false });
    } catch (e) {
      fresh.fail(e);
    }
  };

  /** `n` at a review (or a held reply): back to its form, on the field to fix. */
  const unconfirm = () => {
    const top = stack.current();
    const form = (top.kind === 'send' || top.kind === 'held') && top.from === 'new' ? fresh : compose;
    stack.pop();
    form.refocus();
  };

  /**
   * `y` at a review or a held reply: the form is back while it is sent; once the server has it, the thread is shown.
   * Held: what changed is shown, from the point after it, and the operator confirms again (another owner shown there
   * is accepted by that confirmation).
   */
  const confirmSend = async () => {
    const top = stack.current();
    if (top.kind !== 'send' && top.kind !== 'held') return;
    unconfirm();
    const r = await writes.send(top.op, top.body, { after: top.after, force: top.force });
    if (!r.sent) {
      if (r.held)
        stack.push({
          kind: 'held',
          op: top.op,
          body: top.body,
          from: top.from,
          after: newestSeq(r.held.newMessages, top.after),
          force: top.force || r.held.owner !== undefined,
          hold: r.held,
        });
      return;
    }
    const thread = top.body.encounter.identifier[0]!.value;
    if (top.from === 'new') {
      fresh.set((f) => ({ ...f, text: '' }));
      setSelMsg(undefined);
      stack.reset();
      stack.push({ kind: 'thread', thread });
    } else {
      compose.set((c) => ({ ...c, text: '' }));
      setComposeFor(undefined);
      stack.popTo((s) => s.kind === 'thread');
    }
  };

  /** `a`: take a thread (the owner shown is what the store must still have); another's asks first. */
  const take = (thread: string | undefined) => {
    if (!thread) return;
    const t = threadOf(thread);
    if (t?.owner === desk.operator) return desk.info(`Thread ${clean(thread)} is yours already.`);
    if (t?.owner !== undefined) return stack.push({ kind: 'owned', thread, owner: t.owner, to: 'take' });
    void writes.take(thread, undefined);
  };

  /** `y` at the owner question. */
  const confirmOwned = () => {
    const top = stack.current();
    if (top.kind !== 'owned') return;
    stack.pop();
    if (top.to === 'take') void writes.take(top.thread, top.owner);
    else startCompose(top.thread, true);
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

  const shownThread = () => (stack.current().kind === 'thread' ? (stack.current() as { thread: string }).thread : undefined);

  return {
    stack,
    threads,
    summaries,
    filter,
    /** `f`: all → mine → unassigned → all. */
    nextFilter: () => setFilter((f) => THREAD_FILTERS[(THREAD_FILTERS.indexOf(f) + 1) % THREAD_FILTERS.length]!),
    messages,
    summary,
    viewers: shown.viewers,
    openLoaded: shown.loaded,
    openAt: shown.at,
    plan,
    current,
    selected: selThread,
    forms: { compose, fresh },
    isClosed,
    selectThread: setSelThread,
    selectMessage: setSelMsg,
    openThread,
    openCompose,
    reviewReply,
    openNew,
    reviewNew,
    unconfirm,
    confirmSend: () => void confirmSend(),
    confirmOwned,
    takeSelected: () => take(selThreadRef.current?.thread),
    takeShown: () => take(shownThread()),
    askClose,
    closeSelected: () => askClose(selThreadRef.current?.thread),
    closeShown: () => askClose(shownThread()),
    confirmClose: () => void confirmClose(),
    markSelected: () => {
      const m = selMsgRef.current && (messages.find((x) => x.id === selMsgRef.current!.id) ?? selMsgRef.current);
      if (m) void writes.markRead(m);
    },
  };
}

export type Chat = ReturnType<typeof useChat>;
