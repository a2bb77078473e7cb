/** Notification API: C5 send a notification (practice system → portal), body per decisions.md §9. */
import type { Profile } from '../profile/schema.js';
import type { CallOptions, PdeskClient } from '../client.js';
import { createdId } from '../created.js';
import { parseBody } from '../schemas/common.js';
import { Notification } from '../schemas/notification.js';

export const notificationCategorySystem = (p: Profile) => `${p.namespaces.portal}.communication-category`;

export interface NotificationInput {
  email: string;
  topic: string;
  text: string;
}

export function buildNotification(profile: Profile, n: NotificationInput): Notification {
  return parseBody(Notification, {
    resourceType: 'Communication',
    contained: [{ resourceType: 'Patient', id: 'p1', telecom: [{ system: 'email', value: n.email }] }],
    recipient: [{ reference: '#p1' }],
    topic: { text: n.topic },
    status: 'completed',
    category: [{ coding: [{ system: notificationCategorySystem(profile), code: 'notification' }] }],
    payload: [{ contentString: n.text }],
  });
}

/** The email address a notification is sent to. */
export function notificationEmail(n: Notification): string {
  const target = n.recipient[0]!.reference.slice(1);
  const patient = n.contained.find((p) => p.id === target) ?? n.contained[0]!;
  return patient.telecom[0]!.value;
}

/**
 * C5: send a notification (the same body in either dialect: docs/interface.md "Where the interface departs from FHIR
 * R4"); `created` is the server's id of the Communication it made, when the answer names one.
 */
export async function sendNotification(client: PdeskClient, body: unknown, o: Pick<CallOptions, 'signal'> = {}) {
  const valid = parseBody(Notification, body);
  const res = await client.call('C5', { body: valid, signal: o.signal });
  const sentId = (valid as { id?: unknown }).id;
  return {
    status: res.status,
    body: res.body,
    notification: valid,
    created: createdId(res, 'Communication', typeof sentId === 'string' ? sentId : undefined),
  };
}
