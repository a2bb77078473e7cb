/**
 * Sandbox handler of C5 (portal side): a notification Communication (decisions.md §9), validated, kept in
 * memory with an assigned id `notif-<n>`, answered 201. Constant work per request: the bulk benchmark posts
 * 100,000 of them.
 */
import { Notification } from '../core/schemas/notification.js';
import { validate } from '../listen/accept.js';
import type { Reply, World } from './http.js';

/** C5: `POST /portal/Communication` whose category code is `notification`. */
export function receiveNotification(w: World, body: unknown): Reply {
  const n = validate(Notification, body, 'notification');
  const stored = { ...n, id: `notif-${++w.state.counters.notification}` };
  w.state.notifications.push(stored);
  return { status: 201, body: stored, headers: { location: `Communication/${stored.id}` } };
}
