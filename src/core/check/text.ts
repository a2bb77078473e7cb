/** Texts the write checks send (recognisable on the server as test data), and readers of raw answer fields. */

/** How test data and reports name the suite: what an operator of the server searches for. */
export const SIGNATURE = 'pdesk check';

export const CHECK_TEXT = {
  booking: `${SIGNATURE}: a test booking, cancelled right away`,
  cancel: `${SIGNATURE}: cancelling its test booking`,
  message: `${SIGNATURE}: a test message; please ignore it`,
  reply: `${SIGNATURE}: a test reply; please ignore it`,
  notificationTopic: SIGNATURE,
  notification: `${SIGNATURE}: a test notification; please ignore it`,
  reorder: `${SIGNATURE}: a test reorder; please ignore it`,
  topic: SIGNATURE,
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
