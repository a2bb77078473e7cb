/**
 * A patient in the local thread store: the chat threads whose messages name `Patient/<id>` (as subject, sender
 * or recipient), and the notifications sent to an address known for the patient. Notifications (C5) name a
 * patient only by an email address, and no operation of the interface reads a patient, so an address is known
 * only from the profile's `check` block (its test patient and test address); otherwise the X-ray says so.
 */
import type { Profile } from '../profile/schema.js';
import type { ThreadView } from '../threads/index.js';
import { section, type XrayNode } from './model.js';

export const THREADS_SECTION = 'Chat threads (thread store)';
export const NOTIFICATIONS_SECTION = 'Notifications (C5, thread store)';

/** The threads of the store that involve the patient, newest first. */
export function patientThreads(view: ThreadView, patientRef: string): XrayNode[] {
  const s = section(THREADS_SECTION);
  const out: XrayNode[] = [];
  for (const t of view.threads) {
    const messages = view.messages(t.thread) ?? [];
    if (!messages.some((m) => m.subject === patientRef || m.sender === patientRef || m.recipient === patientRef)) continue;
    out.push(
      s.found(
        `${t.thread} · ${t.status} · ${t.messages} message${t.messages === 1 ? '' : 's'}${t.unread ? ` · ${t.unread} unread` : ''}${t.lastText ? ` · ${t.lastText}` : ''}`,
        { source: 'store', resource: { thread: t, messages: messages.map((m) => m.resource) }, jump: { screen: 'chat', thread: t.thread } },
      ),
    );
  }
  if (!out.length) out.push(s.none(`no chat thread in the store names ${patientRef}`, { source: 'store' }));
  return out;
}

/** Email addresses known for a patient id: the profile's test patient and its test address. */
export function knownEmails(profile: Profile, patientId: string): string[] {
  return profile.check?.patient === patientId && profile.check.email ? [profile.check.email] : [];
}

export function patientNotifications(view: ThreadView, profile: Profile, patientId: string): XrayNode[] {
  const s = section(NOTIFICATIONS_SECTION);
  const all = view.notifications;
  const emails = knownEmails(profile, patientId).map((e) => e.toLowerCase());
  if (!emails.length)
    return [
      s.info(
        `notifications name a patient only by email address, and none is known for Patient/${patientId} (${all.length} notification${all.length === 1 ? '' : 's'} in the store)`,
        { source: 'store' },
      ),
    ];
  const mine = all.filter((n) => n.email && emails.includes(n.email.toLowerCase()));
  if (!mine.length)
    return [s.none(`no notification to ${emails.join(', ')} in the store (the address of check.email)`, { source: 'store' })];
  return mine.map((n) =>
    s.found(`${n.at.slice(0, 16).replace('T', ' ')} ${n.via} to ${n.email} · ${n.topic ?? ''} · ${n.text}`, {
      source: 'store',
      resource: n.resource,
    }),
  );
}
