/** Texts the write checks send (recognisable on the server as test data), and readers of raw answer fields. */

export const CHECK_TEXT = {
  booking: 'pdesk check: a test booking, cancelled right away',
  cancel: 'pdesk check: cancelling its test booking',
  message: 'pdesk check: a test message; please ignore it',
  reply: 'pdesk check: a test reply; please ignore it',
  notificationTopic: 'pdesk check',
  notification: 'pdesk check: a test notification; please ignore it',
  reorder: 'pdesk check: a test reorder; please ignore it',
  topic: 'pdesk check',
} as const;

/** A field of a raw (unvalidated) resource. */
export function rawField(raw: unknown, key: string): unknown {
  return raw && typeof raw === 'object' ? (raw as Record<string, unknown>)[key] : undefined;
}

/** The `id` of a raw resource as a string (ids may arrive as numbers), or undefined. */
export function rawId(raw: unknown): string | undefined {
  const id = rawField(raw, 'id');
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}
