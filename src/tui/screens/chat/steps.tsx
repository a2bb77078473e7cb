/**
 * The steps of the Chat screen, one small component each: they draw what the hook (useChat.ts) holds and
 * call its actions. `active` is true for the top step only.
 */
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { referenceLabel } from '../../../core/labels.js';
import { sanitize } from '../../../core/sanitize.js';
import type { ChatCommunication, EncounterClose } from '../../../core/schemas/chat.js';
import type { ReplyHold } from '../../../core/store/recorded.js';
import type { ChatOp, DeskEvent, DeskMessage, DeskThread } from '../../../core/store/types.js';
import { Confirm } from '../../components/Confirm.js';
import { Form } from '../../components/Form.js';
import { ListView } from '../../components/ListView.js';
import { useDesk } from '../../desk.js';
import { clean, fit, jsonLines } from '../../format.js';
import { COMPOSE_FIELDS, type Chat, NEW_FIELDS } from './useChat.js';
import { useKeys } from '../../keys/useKeys.js';
import type { StepViewProps } from '../../steps.js';
import { useInspectKeys } from '../../inspect/context.js';
import {
  MESSAGE_COLUMNS,
  MESSAGE_HEADER,
  THREAD_COLUMNS,
  THREAD_HEADER,
  detailLines,
  headerLine,
  messageRow,
  messageWidths,
  senderText,
  shortTime,
  threadHead,
  threadRow,
  threadWidths,
} from './format.js';
import { partyLabel } from './reply.js';

export interface StepProps extends StepViewProps {
  c: Chat;
}

const refLabel = (r: { reference?: string; display?: string } | undefined) => referenceLabel(r) || '?';

const IN_A_THREAD = (what: string) => `${what} in a thread: Enter opens the selected one, then select the message.`;

/** `X` on a thread: its encounter's state and its messages' read markers. */
const xrayThread = (thread: string) => ({ kind: 'thread' as const, thread });
/** `y` on a message: the Communication as sent or received. */
const rawMessage = (m: DeskMessage) => ({
  title: `${m.op} ${m.via} message ${m.id} in ${m.thread}`,
  value: m.resource,
  name: `message-${m.id}`,
});
type Change = Exclude<DeskEvent, { kind: 'resync' | 'presence' | 'notification' }>;
const CHANGE: Record<Change['kind'], string> = {
  message: 'message',
  read: 'read marker',
  close: 'close',
  assignment: 'owner',
  reply: 'reply under way',
};
/** `last change 03-01 10:15: message in enc-100 (msg-100-2)`: the newest change an event told. */
const lastLine = (l: { at: Date; event: Change } | undefined) =>
  l
    ? `last change ${shortTime(l.at.toISOString())}: ${CHANGE[l.event.kind]} in ${l.event.thread}${l.event.id ? ` (${l.event.id})` : ''}`
    : '';
const FILTER_TITLE = { all: '', mine: ' (mine)', unassigned: ' (unassigned)' } as const;

export function ThreadsStep({ c, width, height, active }: StepProps) {
  const desk = useDesk();
  const { threads } = c;
  const closed = c.isClosed(c.selected?.thread);
  useKeys(
    [
      {
        keys: ['n'],
        label: 'new message',
        help: 'write a message in any thread, a new one too (C1 or C3)',
        run: desk.guard('C1', 'a new message', c.openNew),
      },
      { keys: ['a'], label: 'take', help: 'take the selected thread (it becomes yours)', run: c.takeSelected },
      {
        keys: ['f'],
        label: c.filter === 'all' ? 'mine' : c.filter === 'mine' ? 'unassigned' : 'all',
        help: 'show all threads, then yours, then those nobody owns',
        run: c.nextFilter,
      },
      {
        keys: ['x'],
        label: closed ? undefined : 'close chat',
        help: 'close the selected chat (C4), after a confirmation',
        run: desk.guard('C4', 'closing a chat', c.closeSelected),
      },
      // The thread's own keys, pressed on the list: where they are (its help lists them there, the list's has no room).
      { keys: ['m'], run: () => desk.info(IN_A_THREAD('m marks a message read')) },
      { keys: ['c'], run: () => desk.info(IN_A_THREAD('c replies')) },
    ],
    { active },
  );
  const unread = useMemo(() => c.summaries.reduce((n, t) => n + t.unread, 0), [c.summaries]);
  const widths = useMemo(() => threadWidths(c.summaries, width - 2), [c.summaries, width]);
  const where = threads.store?.where(desk.profile.name);
  const info = [
    threads.problem && threads.loaded ? threads.problem : '',
    lastLine(threads.last),
    threads.loaded && !threads.complete ? 'reading the older threads…' : '',
    where ? `${threads.store?.engine === 'postgres' ? 'team store' : 'store'} ${where} · you are ${desk.operator}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const empty = !threads.loaded
    ? (threads.problem ?? 'Reading the thread store…')
    : c.filter === 'mine'
      ? `No thread is yours (${desk.operator}): a takes the selected one, f shows the others.`
      : c.filter === 'unassigned'
        ? 'Every thread has an owner: f shows them all.'
        : 'No threads in the store yet: they appear as messages are sent (n) or pushed to the receiver.';
  return (
    <>
      <Text color={desk.receiver ? 'cyan' : 'gray'} wrap="truncate">
        {fit(
          desk.receiver
            ? `Receiving pushes (C1–C5) at ${desk.receiver.url}: threads update live.`
            : 'No receiver here (pdesk tui --listen); what pdesk listen records shows live.',
          width,
        )}
      </Text>
      <Text dimColor wrap="truncate">
        {fit(sanitize(info), width) || ' '}
      </Text>
      <ListView<DeskThread>
        items={c.summaries}
        width={width}
        height={height - 2}
        title={`Chat threads${FILTER_TITLE[c.filter]}${unread ? ` — ${unread} unread` : ''}`}
        header={`  ${headerLine(THREAD_HEADER, widths, width - 2)}`}
        render={(t, w) => threadRow(t, w, widths)}
        itemKey={(t) => t.thread}
        onSelect={c.selectThread}
        onOpen={c.openThread}
        sort={{ columns: THREAD_COLUMNS }}
        refreshedAt={threads.at}
        raw={(t) => ({ title: `chat thread ${t.thread} (desk store)`, value: t, name: `thread-${t.thread}` })}
        xray={(t) => xrayThread(t.thread)}
        active={active}
        empty={empty}
      />
    </>
  );
}

/** The lines the reply form takes under the messages. */
const COMPOSE_LINES = 7;

/** A thread: its messages, the selected one's detail, and the reply form when that is on top. */
export function ThreadStep({ c, thread, width, height, active, composing }: StepProps & { thread: string; composing: boolean }) {
  const desk = useDesk();
  const { summary, plan } = c;
  const closed = summary?.status === 'closed';
  useKeys(
    [
      {
        keys: ['c'],
        label: closed ? undefined : plan ? `reply ${plan.op}` : 'reply',
        help: 'answer the last incoming message (C1 after a C3, C3 after a C1), after a review',
        run: desk.guard(plan?.op ?? 'C1', 'a reply', c.openCompose),
      },
      {
        keys: ['m'],
        label: 'mark read',
        help: 'mark the selected received message read (C2)',
        run: desk.guard('C2', 'marking a message read', c.markSelected),
      },
      {
        keys: ['x'],
        label: closed ? undefined : 'close',
        help: 'close this chat (C4), after a confirmation',
        run: desk.guard('C4', 'closing a chat', c.closeShown),
      },
      { keys: ['n'], help: 'write a message with every field (C1 or C3)', run: desk.guard('C1', 'a new message', c.openNew) },
      {
        keys: ['a'],
        label: summary?.owner === desk.operator ? undefined : 'take',
        help: 'take this thread (it becomes yours)',
        run: c.takeShown,
      },
    ],
    { active },
  );
  useInspectKeys({ xray: () => xrayThread(thread) }, { active });
  const formH = composing ? COMPOSE_LINES : 0;
  // The detail takes what the selected message needs, up to half the screen; the list the rest.
  const detail = !composing && c.current ? detailLines(c.current, width) : [];
  const detailH = composing ? 0 : Math.min(Math.floor((height - 1) / 2), Math.max(4, detail.length + 1));
  const listH = Math.max(3, height - 1 - formH - detailH);
  const head = threadHead(summary, thread, plan?.topic, width, c.viewers);
  const msgWidths = useMemo(() => messageWidths(width - 2, c.messages), [width, c.messages]);
  return (
    <>
      <Text color={closed ? 'red' : 'cyan'} wrap="truncate">
        {fit(head, width)}
      </Text>
      <ListView<DeskMessage>
        items={c.messages}
        width={width}
        height={listH}
        title="Messages (oldest first; times local)"
        header={`  ${headerLine(MESSAGE_HEADER, msgWidths, width - 2)}`}
        render={(m, w) => messageRow(m, w, msgWidths)}
        itemKey={(m) => m.id}
        onSelect={c.selectMessage}
        sort={{ columns: MESSAGE_COLUMNS }}
        refreshedAt={c.openAt}
        raw={rawMessage}
        active={active}
        empty={c.openLoaded ? 'No messages in this thread (only its close is recorded).' : 'Reading the thread…'}
      />
      {composing ? null : <MessageDetail lines={detail} width={width} height={detailH} />}
      {composing && plan ? <ComposeForm c={c} width={width} height={formH} active={c.stack.top.kind === 'compose'} /> : null}
    </>
  );
}

function ComposeForm({ c, width, height, active }: StepProps) {
  const plan = c.plan!;
  return (
    <Form
      title={`${plan.answer ? 'Answer' : 'Write'} as ${partyLabel(plan.as)} (${plan.op}) in ${clean(plan.thread)}`}
      intro={[
        clean(`To ${refLabel(plan.recipient)} from ${refLabel(plan.sender)}`),
        clean(
          `subject ${refLabel(plan.subject)} · ${plan.answer ? `answering ${plan.basis.op} ${plan.basis.id}` : 'nothing received yet: continuing as the sender of the last message'}`,
        ),
      ]}
      fields={COMPOSE_FIELDS}
      {...c.forms.compose.bind}
      onSubmit={c.reviewReply}
      onCancel={() => c.stack.pop()}
      submitLabel="review"
      width={width}
      height={height}
      active={active}
    />
  );
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

export function NewStep({ c, width, height, active }: StepProps) {
  return (
    <Form
      title="New chat message (C1 portal → practice system, C3 practice system → portal)"
      intro={['References: Patient/<id>, PractitionerRole/<id>. A new thread id opens a chat.']}
      fields={NEW_FIELDS}
      {...c.forms.fresh.bind}
      onSubmit={c.reviewNew}
      onCancel={() => c.stack.pop()}
      submitLabel="review"
      width={width}
      height={height}
      active={active}
    />
  );
}

/** The review of a message before it is sent: who, what, and the exact body. */
export function SendStep({ c, op, body, width, height, active }: StepProps & { op: ChatOp; body: ChatCommunication }) {
  const to = op === 'C1' ? 'the practice system' : 'the portal';
  return (
    <Confirm
      question={clean(`Send? POST Communication (${op}) to ${to} in ${body.encounter.identifier[0]?.value}:`)}
      lines={[
        clean(`From ${refLabel(body.sender[0])} to ${refLabel(body.recipient[0])} · subject ${refLabel(body.subject[0])}`),
        ...(body.topic ? [clean(`Topic: ${body.topic.text}`)] : []),
        ...body.payload.map((p) => clean(`Text: ${p.contentString}`)),
        '',
        ...jsonLines(body),
      ]}
      yesLabel={`send ${op}`}
      onYes={c.confirmSend}
      onNo={c.unconfirm}
      width={width}
      height={height}
      active={active}
    />
  );
}

/** A reply the store held: what changed since the form was opened, and the question to send it all the same. */
export function HeldStep({
  c,
  op,
  body,
  hold,
  width,
  height,
  active,
}: StepProps & { op: ChatOp; body: ChatCommunication; hold: ReplyHold }) {
  const desk = useDesk();
  const thread = body.encounter.identifier[0]?.value ?? '';
  const n = hold.newMessages.length;
  const why = [
    n ? `${n === 1 ? 'a message' : `${n} messages`} came in after you opened the reply` : '',
    hold.owner !== undefined ? `the thread is ${hold.owner}'s (it stays theirs)` : '',
    hold.replying ? `${hold.replying.operator} is sending a reply to it` : '',
  ].filter(Boolean);
  const who = (m: DeskMessage) => (m.via === 'received' ? senderText(m) : (m.operator ?? 'another desk'));
  return (
    <Confirm
      question={clean(`Not sent: ${why.join('; ')}. Send your reply (${op}) in ${thread} now?`)}
      lines={[
        ...hold.newMessages.map((m) => clean(`${shortTime(m.at)} ${m.via === 'received' ? 'in ' : 'out'} ${m.op} ${who(m)}: ${m.text}`)),
        ...(hold.replying
          ? [clean(`${hold.replying.operator} started a reply at ${shortTime(hold.replying.since)}: wait until it shows, then confirm.`)]
          : []),
        '',
        ...body.payload.map((p) => clean(`Your reply: ${p.contentString}`)),
        clean(`(you are ${desk.operator}; n goes back to the form)`),
      ]}
      yesLabel={`send ${op}`}
      onYes={c.confirmSend}
      onNo={c.unconfirm}
      width={width}
      height={height}
      active={active}
    />
  );
}

/** Another operator owns the thread: asked before a reply is written to it, or before it is taken. */
export function OwnedStep({
  c,
  thread,
  owner,
  to,
  width,
  height,
  active,
}: StepProps & { thread: string; owner: string; to: 'reply' | 'take' }) {
  return (
    <Confirm
      question={clean(
        to === 'reply' ? `Thread ${thread} is ${owner}'s. Reply anyway? It stays ${owner}'s.` : `Thread ${thread} is ${owner}'s. Take it?`,
      )}
      lines={[
        clean(to === 'reply' ? `${owner} may be answering it: read the thread first.` : `It becomes yours; ${owner} sees the change.`),
      ]}
      yesLabel={to === 'reply' ? 'reply anyway' : 'take it'}
      notAWrite
      onYes={c.confirmOwned}
      onNo={() => c.stack.pop()}
      width={width}
      height={height}
      active={active}
    />
  );
}

export function CloseStep({ c, thread, body, width, height, active }: StepProps & { thread: string; body?: EncounterClose }) {
  return (
    <Confirm
      question={`Close chat ${clean(thread)}? PUT Encounter/${clean(thread)} (C4); it then takes no new messages:`}
      lines={
        body
          ? jsonLines(body)
          : [
              'The Encounter is read from the portal first (GET), then put back with status finished',
              "and every other field kept (the profile's dialect is r4).",
            ]
      }
      yesLabel="close it"
      danger
      onYes={c.confirmClose}
      onNo={() => c.stack.pop()}
      width={width}
      height={height}
      active={active}
    />
  );
}
