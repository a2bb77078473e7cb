/**
 * Checks of the chat API (C1–C4) and notifications (C5); all write, so only with `write`. On the test encounter:
 * C1 sends a message to the practice system · C3 one to the portal · C2 marks the C1 message read · C4 closes the
 * chat · C1 to the closed chat is refused (4xx). C5 sends a notification to the test address.
 */
import { buildChatMessage, buildEncounterClose, buildReadMarker } from '../api/chat.js';
import { buildNotification } from '../api/notifications.js';
import { HttpError, statusLine } from '../errors.js';
import type { OpId } from '../ops.js';
import { practitionerRoles } from './appointments.js';
import { checkAcceptedBody, checkAnswer } from './answers.js';
import { type CheckContext, defineCheck } from './context.js';
import { CHECK_TEXT, rawId } from './text.js';

/** The patient of the test (`Patient/<id>`) and a practitioner role A2 lists, to address messages to. */
async function parties(c: CheckContext): Promise<{ patient: string; role: string }> {
  const patient = `Patient/${c.input('patient').replace(/^Patient\//, '')}`;
  const roles = await c.prerequisite('A2', () => practitionerRoles(c.run, c.signal));
  const role = roles.valid[0];
  if (!role) return c.skip('A2 lists no practitioner role to address the test messages to');
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

/**
 * C1 (patient to practice system) or C3 (practice system to patient): send one message in the test chat, list it
 * as created, and return its id.
 */
async function sendMessage(c: CheckContext, op: 'C1' | 'C3'): Promise<string> {
  const { patient, role } = await parties(c);
  const thread = c.input('encounter');
  const toPractice = op === 'C1';
  const body = buildChatMessage(c.profile, {
    thread,
    text: toPractice ? CHECK_TEXT.message : CHECK_TEXT.reply,
    sender: toPractice ? patient : role,
    recipient: toPractice ? role : patient,
    subject: patient,
    topic: CHECK_TEXT.topic,
  });
  const res = await accepted(c, op, { body });
  const where = toPractice ? 'at the practice system' : 'at the portal';
  c.run.recordCreated({ resource: `Communication/${body.id}`, op, check: c.info.id, note: `in chat ${thread}, ${where}` });
  c.note(`sent Communication/${body.id} to ${toPractice ? role : patient} in chat ${thread} (${statusLine(res.status)}).`);
  return body.id;
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
      c.data.c1 = { id: await sendMessage(c, 'C1') };
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
      const res = await accepted(c, 'C2', { params: { communicationId: sent.id }, body: buildReadMarker(c.profile, c.run.settings.now) });
      c.note(`marked Communication/${sent.id} read (${statusLine(res.status)}).`);
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
      const res = await accepted(c, 'C4', { params: { encounterId: thread }, body: buildEncounterClose(c.profile, thread) });
      c.data.closed = true;
      c.note(`closed chat ${thread} (${statusLine(res.status)}).`);
    },
  }),
  defineCheck({
    id: 'C1-closed-refused',
    op: 'C1',
    area: 'chat',
    title: 'C1 to the closed chat is refused (4xx)',
    needs: [...chatNeeds],
    write: true,
    async run(c) {
      if (!c.data.closed) return c.needsEarlier('C4-close', 'a closed chat');
      const { patient, role } = await parties(c);
      const thread = c.input('encounter');
      const body = buildChatMessage(c.profile, {
        thread,
        text: CHECK_TEXT.message,
        sender: patient,
        recipient: role,
        subject: patient,
        topic: CHECK_TEXT.topic,
      });
      try {
        await c.client.call('C1', { body, signal: c.signal });
      } catch (e) {
        if (e instanceof HttpError && e.status < 500) {
          c.note(`refused with ${statusLine(e.status)}${e.status === 409 ? '' : " (pdesk's sandbox answers 409 Conflict)"}.`);
          return;
        }
        throw e;
      }
      c.run.recordCreated({ resource: `Communication/${body.id}`, op: 'C1', check: c.info.id, note: `in the closed chat ${thread}` });
      c.error(`a message to the closed chat ${thread} was accepted (Communication/${body.id}); a closed chat must refuse it (409).`);
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
      const id = rawId(res.body);
      c.run.recordCreated({
        resource: id ? `Communication/${id}` : 'Communication (no id in the answer)',
        op: 'C5',
        check: c.info.id,
        note: `notification to ${email}`,
      });
      c.note(`sent a notification to ${email} (${statusLine(res.status)}).`);
    },
  }),
];
