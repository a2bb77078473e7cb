/**
 * Checks of the chat API (C1–C4) and notifications (C5); all write, so only with `write`. On the test encounter:
 * C1 sends a message to the practice system · C3 one to the portal · C2 marks the C1 message read · C4 closes the
 * chat · C1 to the closed chat is refused (4xx). C5 sends a notification to the test address.
 */
import { buildChatMessage, buildReadMarker, closeChat } from '../api/chat.js';
import { chatWire, dialectOf, readMarkerWire } from '../api/dialect.js';
import { buildNotification } from '../api/notifications.js';
import { createdId } from '../created.js';
import { HttpError, statusLine } from '../errors.js';
import type { OpId } from '../ops.js';
import { practitionerRoles } from './appointments.js';
import { checkAcceptedBody, checkAnswer, judgeRefusal, noteServerId } from './answers.js';
import { type CheckContext, defineCheck } from './context.js';
import { emptyBecause } from './search.js';
import { CHECK_TEXT } from './text.js';

/** The patient of the test (`Patient/<id>`) and a practitioner role A2 lists, to address messages to. */
async function parties(c: CheckContext): Promise<{ patient: string; role: string }> {
  const patient = `Patient/${c.input('patient').replace(/^Patient\//, '')}`;
  const roles = await c.prerequisite('A2', () => practitionerRoles(c.run, c.signal));
  const role = roles.valid[0];
  if (!role) return c.skip(`${emptyBecause(roles, 'practitioner roles', 'A2-roles')}: none to address the test messages to`);
  return { patient, role: `PractitionerRole/${role.id}` };
}

/** Send one write and check its "accepted" answer: any 2xx, a resource body if there is one. */
async function accepted(c: CheckContext, op: OpId, call: Parameters<CheckContext['client']['call']>[1]) {
  const res = await c.client.call(op, { ...call, signal: c.signal });
  checkAnswer(c, op, res);
  checkAcceptedBody(c, res.body);
  return res;
}

const chatNeeds = ['patient', 'encounter'] as const;

/** A test message of the chat checks, in the interface's shape (sent in the profile's dialect). */
async function testMessage(c: CheckContext, toPractice: boolean) {
  const { patient, role } = await parties(c);
  return buildChatMessage(c.profile, {
    thread: c.input('encounter'),
    text: toPractice ? CHECK_TEXT.message : CHECK_TEXT.reply,
    sender: toPractice ? patient : role,
    recipient: toPractice ? role : patient,
    subject: patient,
    topic: CHECK_TEXT.topic,
  });
}

/**
 * C1 (patient to practice system) or C3 (practice system to patient): send one message in the test chat, list it
 * as created under the server's id, and return that id and the one sent.
 */
async function sendMessage(c: CheckContext, op: 'C1' | 'C3'): Promise<{ id: string; sentId: string }> {
  const thread = c.input('encounter');
  const toPractice = op === 'C1';
  const body = await testMessage(c, toPractice);
  const res = await accepted(c, op, { body: chatWire(dialectOf(c.profile), body) });
  const made = createdId(res, 'Communication', body.id);
  const id = made.id ?? body.id;
  const where = toPractice ? 'at the practice system' : 'at the portal';
  c.run.recordCreated({ resource: `Communication/${id}`, op, check: c.info.id, note: `in chat ${thread}, ${where}`, undo: 'none' });
  noteServerId(c, 'Communication', made, res.body);
  c.note(`sent Communication/${id} to ${toPractice ? 'the practice system' : 'the portal'} in chat ${thread} (${statusLine(res.status)}).`);
  return { id, sentId: body.id };
}

export const chatChecks = [
  defineCheck({
    id: 'C1-send',
    op: 'C1',
    area: 'chat',
    title: 'C1 sends a message to the practice system',
    needs: [...chatNeeds],
    write: true,
    async run(c) {
      c.data.c1 = await sendMessage(c, 'C1');
    },
  }),
  defineCheck({
    id: 'C3-reply',
    op: 'C3',
    area: 'chat',
    title: 'C3 sends a message to the portal',
    needs: [...chatNeeds],
    write: true,
    async run(c) {
      await sendMessage(c, 'C3');
    },
  }),
  defineCheck({
    id: 'C2-mark-read',
    op: 'C2',
    area: 'chat',
    title: 'C2 marks the message C1 sent as read',
    needs: [...chatNeeds],
    write: true,
    async run(c) {
      const sent = c.data.c1;
      if (!sent) return c.needsEarlier('C1-send', 'a message');
      // The default route addresses the message by the server's id; a conditional route (`?identifier=…`) by the
      // id pdesk sent, which the message carries as its identifier (decisions.md §2, §16).
      const conditional = (c.profile.routes?.C2?.path ?? '').includes('?');
      const id = conditional ? sent.sentId : sent.id;
      const marker = readMarkerWire(dialectOf(c.profile), buildReadMarker(c.profile, c.run.settings.now));
      const res = await accepted(c, 'C2', { params: { communicationId: id }, body: marker });
      c.note(`marked Communication/${sent.id} read${conditional ? ` (by its identifier ${id})` : ''} (${statusLine(res.status)}).`);
    },
  }),
  defineCheck({
    id: 'C4-close',
    op: 'C4',
    area: 'chat',
    title: 'C4 closes the chat',
    needs: [...chatNeeds],
    write: true,
    async run(c) {
      const thread = c.input('encounter');
      // In the profile's dialect: under r4 the Encounter is read first and put back whole (decisions.md §16).
      const res = await closeChat(c.client, thread, undefined, { signal: c.signal });
      checkAnswer(c, 'C4', res);
      checkAcceptedBody(c, res.body);
      c.data.closed = true;
      c.note(`closed chat ${thread} (${statusLine(res.status)}).`);
    },
  }),
  defineCheck({
    id: 'C1-closed-refused',
    op: 'C1',
    area: 'chat',
    title: 'C1 to the closed chat is refused (409)',
    needs: [...chatNeeds],
    write: true,
    async run(c) {
      if (!c.data.closed) return c.needsEarlier('C4-close', 'a closed chat');
      const thread = c.input('encounter');
      const body = await testMessage(c, true);
      let res: Awaited<ReturnType<typeof c.client.call>>;
      try {
        res = await c.client.call('C1', { body: chatWire(dialectOf(c.profile), body), signal: c.signal });
      } catch (e) {
        if (e instanceof HttpError && e.status < 500) {
          judgeRefusal(c, e, 'a message to a closed chat');
          return;
        }
        throw e;
      }
      const id = createdId(res, 'Communication', body.id).id ?? body.id;
      c.run.recordCreated({
        resource: `Communication/${id}`,
        op: 'C1',
        check: c.info.id,
        note: `in the closed chat ${thread}`,
        undo: 'none',
      });
      c.error(
        `a message to the closed chat ${thread} was accepted (${statusLine(res.status)}, Communication/${id}): the server does not refuse messages to a closed chat; it must refuse them (409).`,
      );
    },
  }),
];

export const notificationChecks = [
  defineCheck({
    id: 'C5-notify',
    op: 'C5',
    area: 'notifications',
    title: 'C5 sends a notification to the test address',
    needs: ['email'],
    write: true,
    async run(c) {
      const email = c.input('email');
      const body = buildNotification(c.profile, { email, topic: CHECK_TEXT.notificationTopic, text: CHECK_TEXT.notification });
      const res = await accepted(c, 'C5', { body });
      // The server's id: its answer's, else its Location's (decisions.md §16).
      const id = createdId(res, 'Communication').id;
      c.run.recordCreated({
        resource: id ? `Communication/${id}` : 'Communication (no id in the answer)',
        op: 'C5',
        check: c.info.id,
        note: `notification to ${email}`,
        undo: 'none',
      });
      c.note(`sent a notification to ${email} (${statusLine(res.status)}).`);
    },
  }),
];
