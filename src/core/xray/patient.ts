/**
 * A patient in the desk's store (either engine): the chat threads whose messages name `Patient/<id>` (as subject, sender
 * or recipient), and the notifications sent to an address known for the patient. Notifications (C5) name a
 * patient only by an email address, and no operation of the interface reads a patient, so an address is known
 * only from the profile's `check` block (its test patient and test address); otherwise the X-ray says so.
 */
import type { Profile } from '../profile/schema.js';
import { section, type XrayNode } from './model.js';
import type { XrayStore } from './thread.js';

export const THREADS_SECTION = "Chat threads (desk's store)";
export const NOTIFICATIONS_SECTION = "Notifications (C5, desk's store)";

/** The threads of the store that involve the patient, newest first. */
export async function patientThreads(store: XrayStore, profile: string, patientRef: string): Promise<XrayNode[]> {
  const s = section(THREADS_SECTION);
  const out: XrayNode[] = [];
  for (const t of await store.threadsNaming(profile, patientRef)) {
    out.push(
      s.found(
        `${t.thread} · ${t.status} · ${t.messages} message${t.messages === 1 ? '' : 's'}${t.unread ? ` · ${t.unread} unread` : ''}${t.owner ? ` · ${t.owner}'s` : ''}${t.lastText ? ` · ${t.lastText}` : ''}`,
        { source: 'store', resource: t, jump: { screen: 'chat', thread: t.thread } },
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

export async function patientNotifications(store: XrayStore, profile: Profile, patientId: string): Promise<XrayNode[]> {
  const s = section(NOTIFICATIONS_SECTION);
  const all = await store.notifications(profile.name);
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
