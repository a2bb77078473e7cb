/**
 * Chat screen: the threads of the local thread store (src/core/threads) with unread counts, updating live as
 * pushes arrive (the receiver of `tui --listen` / `--sandbox`, or a `pdesk listen` elsewhere writing the same
 * store); a thread view (messages in order with direction, time, sender, text, read state); `c` answers the
 * party of the thread's last incoming message (C1 or C3, reply.ts) and `n` writes a message in any
 * thread, each reviewed in a confirmation before it is sent and recorded in the store once the server
 * acknowledged it; `m` marks the selected received message read (C2); `x` closes the chat (C4) after a
 * confirmation. State: useChat.ts; one component per step: steps.tsx.
 */
import { Pane } from '../../components/Pane.js';
import { type ChatStep, useChat } from './useChat.js';
import { StepStackView, useStepBack } from '../../steps.js';
import { CloseStep, NewStep, SendStep, ThreadStep, ThreadsStep } from './steps.js';
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
        lines={['', c.threads.problem, '', 'Start the TUI with a profile from the profile store, or use `pdesk chat` commands.']}
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
          case 'close':
            return <CloseStep {...p} thread={step.thread} body={step.body} />;
        }
      }}
    </StepStackView>
  );
}
