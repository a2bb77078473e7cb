/**
 * Chat screen: the threads of the desk store (the config folder's files, or the team store on PostgreSQL) with
 * their owners and unread counts, updating live as pushes arrive and other operators answer (the receiver of
 * `tui --listen` / `--sandbox`, a `pdesk listen` elsewhere, another operator's TUI or command); `f` shows all, mine
 * or unassigned, `a` takes a thread. A thread view (messages in order with direction, time, sender, text, read
 * state; who else has it open); `c` answers the party of the thread's last incoming message (C1 or C3, reply.ts)
 * and `n` writes a message in any thread, each reviewed in a confirmation before it is sent and recorded in the
 * store once the server acknowledged it — a reply to another operator's thread asks first, and one that something
 * new overtook is held and shown again; `m` marks the selected received message read (C2); `x` closes the chat
 * (C4) after a confirmation. State: useChat.ts; one component per step: steps.tsx.
 */
import { Pane } from '../../components/Pane.js';
import { type ChatStep, useChat } from './useChat.js';
import { StepStackView, useStepBack } from '../../steps.js';
import { CloseStep, HeldStep, NewStep, OwnedStep, SendStep, ThreadStep, ThreadsStep } from './steps.js';
import type { ScreenProps } from '../types.js';

/** The reply form is drawn under the thread it answers. */
const inline = (s: ChatStep) => s.kind === 'compose';

export function ChatScreen({ width, height }: ScreenProps) {
  const c = useChat();
  useStepBack(c.stack);
  if (c.threads.problem && !c.threads.loaded)
    return (
      <Pane
        title="Chat threads"
        color="red"
        lines={[
          '',
          c.threads.problem,
          '',
          c.threads.store
            ? 'It is read again in a minute; pdesk store status says what is wrong with the store.'
            : 'Start the TUI with a profile from the profile store, or use `pdesk chat` commands.',
        ]}
        width={width}
        height={height}
      />
    );
  return (
    <StepStackView stack={c.stack} height={height} inline={inline}>
      {(step, { active, index }) => {
        const p = { c, width, height, active };
        switch (step.kind) {
          case 'threads':
            return <ThreadsStep {...p} />;
          case 'thread':
            return <ThreadStep {...p} thread={step.thread} composing={c.stack.steps[index + 1]?.kind === 'compose'} />;
          case 'compose':
            return null; // drawn by the thread below it
          case 'new':
            return <NewStep {...p} />;
          case 'send':
            return <SendStep {...p} op={step.op} body={step.body} />;
          case 'held':
            return <HeldStep {...p} op={step.op} body={step.body} hold={step.hold} />;
          case 'owned':
            return <OwnedStep {...p} thread={step.thread} owner={step.owner} to={step.to} />;
          case 'close':
            return <CloseStep {...p} thread={step.thread} body={step.body} />;
        }
      }}
    </StepStackView>
  );
}
