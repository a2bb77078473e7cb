/**
 * Outgoing pushes of the sandbox, as the practice system: the automatic C3 reply to every C1 (after the reply
 * delay) and, when a push target is given, shortly after start: the C4 close of each chat the seed holds closed
 * (enc-200; a portal elsewhere never saw it closed), one demo C3 and one demo C5. Bodies come from the
 * core builders and are sent with the core client to the push target (`pushTo`, else the sandbox's own
 * /portal). A failed push is logged and recorded in `state.pushes`; it never crashes the sandbox.
 */
import { buildChatMessage, buildEncounterClose, closeChat, replyMessage } from '../core/api/chat.js';
import { buildNotification, sendNotification } from '../core/api/notifications.js';
import { PdeskClient } from '../core/client.js';
import { type ChatCommunication, threadOf } from '../core/schemas/chat.js';
import { Profile } from '../core/profile/schema.js';
import type { PushPort } from './http.js';
import { sandboxProfile } from './profile.js';
import { PATIENTS } from './seed.js';
import type { PushRecord, SandboxState } from './state.js';

export interface PushOptions {
  /** The sandbox's own URL (`http://127.0.0.1:<port>`). */
  ownUrl: string;
  /** Portal base URL to push to; default `${ownUrl}/portal`. */
  pushTo?: string;
  replyDelayMs: number;
  /** The sandbox's own token, sent only when pushing to its own portal. */
  token?: string;
  log: (line: string) => void;
}

export const DEMO_PUSH_DELAY_MS = 2000;
export const AUTO_REPLY_TEXT = 'Thank you for your message. We have received it and will answer within one working day.';

export class Pushes implements PushPort {
  private client?: PdeskClient;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inflight = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private closed = false;
  readonly target: string;
  /** The chats the seed holds closed (the state is seeded before the pushes are made). */
  private readonly seedClosed: string[];

  constructor(
    private readonly state: SandboxState,
    private readonly o: PushOptions,
  ) {
    this.target = (o.pushTo ?? `${o.ownUrl}/portal`).replace(/\/+$/, '');
    this.seedClosed = [...state.encounters.values()].filter((e) => e.status === 'finished').map((e) => e.id);
  }

  private get profile() {
    return this.getClient().profile;
  }

  private getClient(): PdeskClient {
    if (!this.client) {
      const own = this.o.pushTo === undefined;
      const base = sandboxProfile(this.o.ownUrl, {
        name: 'sandbox-push',
        appointmentApi: this.state.appointmentApi,
        approvalFlow: this.state.approvalFlow,
      });
      const profile = Profile.parse({
        ...base,
        portal: { baseUrl: this.target, auth: own && this.o.token ? { type: 'bearer', token: this.o.token } : { type: 'none' } },
        timeouts: { connectMs: 5000, requestMs: 10_000 },
        retries: { max: 0 },
      });
      this.client = new PdeskClient(profile);
    }
    return this.client;
  }

  private later(ms: number, fn: () => Promise<void>): void {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.track(fn());
    }, ms);
    t.unref();
    this.timers.add(t);
  }

  private track(p: Promise<void>): void {
    const q = p.catch(() => undefined).finally(() => this.inflight.delete(q));
    this.inflight.add(q);
  }

  /** Send one push, record it, log a failure. */
  private async send(
    op: PushRecord['op'],
    kind: PushRecord['kind'],
    id: string | undefined,
    go: (c: PdeskClient) => Promise<{ status: number }>,
  ): Promise<void> {
    if (this.closed) return;
    const path = op === 'C4' ? `/Encounter/${encodeURIComponent(id ?? '')}` : '/Communication';
    const rec: PushRecord = { op, kind, url: `${this.target}${path}`, id, at: new Date().toISOString() };
    this.state.pushes.push(rec);
    try {
      rec.status = (await go(this.getClient())).status;
    } catch (e) {
      if (this.closed) return;
      const err = e as Error & { details?: string[] };
      rec.error = [err.message, ...(err.details ?? [])].join(' ');
      this.o.log(`pdesk sandbox: ${op} push to ${rec.url} failed: ${rec.error}`);
    }
  }

  /** C3 automatic reply to a C1: same thread, from its recipient back to its sender. */
  scheduleReply(m: ChatCommunication): void {
    this.later(this.o.replyDelayMs, () => this.reply(m));
  }

  private async reply(m: ChatCommunication): Promise<void> {
    const thread = threadOf(m);
    if (this.state.encounters.get(thread)?.status === 'finished') return;
    let body: ChatCommunication;
    try {
      body = buildChatMessage(this.profile, {
        thread,
        text: AUTO_REPLY_TEXT,
        sender: m.recipient[0]!.reference,
        recipient: m.sender[0]!.reference,
        subject: m.subject[0]!.reference,
        topic: m.topic?.text,
      });
    } catch (e) {
      this.o.log(`pdesk sandbox: no automatic reply to message ${m.id}: ${(e as Error).message}`);
      return;
    }
    if (m.recipient[0]!.display) body.sender[0]!.display = m.recipient[0]!.display;
    if (m.sender[0]!.display) body.recipient[0]!.display = m.sender[0]!.display;
    body.sent = new Date().toISOString();
    this.state.messages.set(body.id, body);
    await this.send('C3', 'reply', body.id, (c) => replyMessage(c, body, { signal: this.abort.signal }));
  }

  /**
   * The seed's closed chats as C4 closes (the push target is a portal that never saw them closed), then one demo
   * C3 (in enc-100) and one demo C5, so a demo shows incoming pushes.
   */
  scheduleDemo(delayMs = DEMO_PUSH_DELAY_MS): void {
    this.later(delayMs, async () => {
      const p = this.profile;
      for (const id of this.seedClosed) {
        const body = buildEncounterClose(p, id);
        await this.send('C4', 'demo', id, (c) => closeChat(c, id, body, { signal: this.abort.signal }));
      }
      if (this.state.encounters.get('enc-100')?.status !== 'finished') {
        const msg = buildChatMessage(p, {
          thread: 'enc-100',
          text: 'Your lab results are in: everything looks normal. No need to call us.',
          sender: 'PractitionerRole/1001',
          recipient: 'Patient/pat-1',
          subject: 'Patient/pat-1',
          topic: 'Lab results',
        });
        msg.sent = new Date().toISOString();
        this.state.messages.set(msg.id, msg);
        await this.send('C3', 'demo', msg.id, (c) => replyMessage(c, msg, { signal: this.abort.signal }));
      }
      const n = buildNotification(p, {
        email: PATIENTS['pat-1'].email,
        topic: 'Appointment reminder',
        text: 'Reminder: you have an appointment with Dr. Anna Berg tomorrow at 09:00 UTC.',
      });
      await this.send('C5', 'demo', undefined, (c) => sendNotification(c, n, { signal: this.abort.signal }));
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.abort.abort();
    await Promise.all([...this.inflight]);
    await this.client?.close();
  }
}
