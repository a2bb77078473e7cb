/** Chat schemas (C1–C4): Communication, read marker (JSON Patch) and Encounter close. */
import * as z from './zod.js';
import { CodeableConcept, DateTime, IdString, Identifier, Reference } from './common.js';

export const Payload = z.looseObject({
  contentString: z.string(),
  contentAttachment: z.optional(z.looseObject({ contentType: z.string(), title: z.string() })),
});

/**
 * One value or a non-empty list of them, read as the list: FHIR R4 makes a Communication's `sender` and `subject`
 * (and a Reference's `identifier`) single values where the interface shows arrays (interface.md "Where the interface
 * departs from FHIR R4"). Both shapes are read; the list is what pdesk keeps (its thread store, its checks).
 */
function oneOrMany<S extends z.core.$ZodType>(item: S) {
  return z.union([
    z.array(item).check(z.minLength(1)),
    z.pipe(
      item,
      z.transform((v: z.output<S>) => [v]),
    ),
  ]);
}

/**
 * The thread of a message: the interface's `{identifier: [Identifier]}`, or FHIR R4's Reference, whose `identifier` is
 * one Identifier (a `reference` beside it is kept). The identifier names the thread (decisions.md §6).
 */
const EncounterRef = z.looseObject({ identifier: oneOrMany(Identifier), reference: z.optional(z.string()) });

/**
 * A chat message as sent (C1, C3) and as a receiver accepts it: every required column enforced. Read in the
 * interface's shape or FHIR R4's (single `sender`, `subject`; `encounter` a Reference) and kept in the interface's.
 */
export const ChatCommunication = z.looseObject({
  resourceType: z.literal('Communication'),
  id: IdString,
  identifier: z.array(Identifier).check(z.minLength(1)),
  topic: z.optional(z.looseObject({ text: z.string() })),
  status: z.literal('completed'),
  payload: z.array(Payload).check(z.minLength(1)),
  encounter: EncounterRef,
  recipient: oneOrMany(Reference),
  sender: oneOrMany(Reference),
  subject: oneOrMany(Reference),
  category: z.array(CodeableConcept).check(z.minLength(1)),
  sent: z.optional(DateTime),
});
export type ChatCommunication = z.infer<typeof ChatCommunication>;

/** The thread of a chat message: its encounter id (docs/decisions.md §6), a string even when sent as a number. */
export function threadOf(c: Pick<ChatCommunication, 'encounter'>): string {
  return String(c.encounter.identifier[0]!.value);
}

const SeenAt = z.looseObject({
  url: z.string(),
  valueDateTime: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/, 'expected a date-time without offset')),
});
/** FHIR R4's form: the extension list itself (`extension` is an array), its date-time with or without an offset. */
const SeenAtList = z.array(z.extend(SeenAt, { valueDateTime: DateTime })).check(z.minLength(1));

export const ReadMarkerOp = z.looseObject({
  op: z.literal('add'),
  path: z.string().check(z.minLength(1)),
  // The interface's one extension object, or FHIR R4's list of them (read as its ResourceSeenAt one, else its first).
  value: z.union([
    SeenAt,
    z.pipe(
      SeenAtList,
      z.transform((list) => list.find((e) => e.url.endsWith('ResourceSeenAt')) ?? list[0]!),
    ),
  ]),
});
/** The C2 body: a JSON Patch document (RFC 6902 array) of one `add`; a bare operation object is also accepted. */
export const ReadMarker = z.union([
  z.array(ReadMarkerOp).check(z.minLength(1)),
  z.pipe(
    ReadMarkerOp,
    z.transform((op) => [op]),
  ),
]);
export type ReadMarker = z.infer<typeof ReadMarker>;

/**
 * The C4 body. `class` (FHIR R4's, which pdesk sends: decisions.md §7) is not in the interface, so a receiver takes
 * the body with or without it and keeps it as sent, like any other field the interface does not name.
 */
export const EncounterClose = z.looseObject({
  resourceType: z.literal('Encounter'),
  id: IdString,
  status: z.literal('finished'),
  identifier: z.array(Identifier).check(z.minLength(1)),
});
export type EncounterClose = z.infer<typeof EncounterClose>;

/**
 * A C4 body given whole under the r4 dialect (`chat close --body`): an R4 Encounter, finished, which names its thread
 * by its id and need not carry the interface's identifier.
 */
export const EncounterFinished = z.looseObject({
  resourceType: z.literal('Encounter'),
  id: IdString,
  status: z.literal('finished'),
});

/**
 * `chat` or `notification`: the category code that tells a chat message (C3) from a notification (C5) when
 * both arrive at the portal's `POST /Communication` (interface.md: "The portal uses the category to tell
 * chat messages from notifications"). Reads the raw body, before validation.
 */
export function communicationKind(body: unknown): 'chat' | 'notification' | undefined {
  const cats = (body as { category?: unknown })?.category;
  if (!Array.isArray(cats)) return undefined;
  for (const c of cats) {
    const codings = (c as { coding?: unknown })?.coding;
    if (!Array.isArray(codings)) continue;
    for (const k of codings) {
      const code = (k as { code?: unknown })?.code;
      if (code === 'chat' || code === 'notification') return code;
    }
  }
  return undefined;
}
