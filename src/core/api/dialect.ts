/**
 * The body dialect of a profile (decisions.md §16): what a body pdesk builds looks like on the wire. pdesk builds and
 * keeps every body in the interface's shape (docs/interface.md); a profile with `"dialect": "r4"` sends the fields
 * where the interface departs from FHIR R4 as R4 has them (interface.md "Where the interface departs from FHIR R4"):
 *
 *   C1, C3   `sender`, `subject` one Reference (not a list); `encounter.identifier` one Identifier
 *   C2       the read marker's `value` the extension list (`[{url, valueDateTime}]`), its date-time with the offset
 *   M3       `note` Annotations (`[{text}]`), not strings
 *   C4       the server's own Encounter with `status` finished (a read-modify-write: api/chat.ts `closeChat`)
 *   A4       `schedule` and `schedule.actor:PractitionerRole` typed references (`Schedule/<id>`)
 *   M1       `_include=MedicationRequest:intended-performer`, so that each request comes with its pharmacy
 *   M4       `_total=accurate`, so that the answer carries the `total` the interface's has
 *
 * A6, A7 and C5 are the same in both. Each function converts one body; a caller sending many (a bulk send) picks
 * the function once.
 */
import type { Profile } from '../profile/schema.js';
import { withOffset } from '../dates.js';
import { BodyError } from '../errors.js';
import type { ChatCommunication, ReadMarker } from '../schemas/chat.js';
import type { MedicationRequestCreate } from '../schemas/medication.js';

export type Dialect = 'interface' | 'r4';

/** The body dialect of a profile: `interface` unless it says `r4`. */
export function dialectOf(profile: Pick<Profile, 'dialect'>): Dialect {
  return profile.dialect ?? 'interface';
}

/** The one element R4 allows where the interface has a list; more than one is refused (exit 2, nothing sent). */
function single<T>(list: readonly T[] | undefined, path: string): T | undefined {
  if (list && list.length > 1) throw new BodyError(path, `holds ${list.length} values; FHIR R4 allows one (the profile's dialect is r4)`);
  return list?.[0];
}

/** A C1/C3 Communication as the dialect sends it (key order kept). */
export function chatWire(dialect: Dialect, c: ChatCommunication): Record<string, unknown> {
  if (dialect === 'interface') return c;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(c)) {
    if (k === 'sender' || k === 'subject') out[k] = single(v as ChatCommunication['sender'], `$.${k}`);
    else if (k === 'encounter') {
      const { identifier, ...rest } = c.encounter;
      const one = single(identifier, '$.encounter.identifier');
      out[k] = { ...rest, identifier: one };
    } else out[k] = v;
  }
  return out;
}

/** `2026-11-22T10:15:00` (local, no offset) → `2026-11-22T10:15:00+01:00`; a value with an offset is kept. */
function withLocalOffset(dateTime: string): string {
  if (/(Z|[+-]\d{2}:\d{2})$/i.test(dateTime)) return dateTime;
  const d = new Date(dateTime); // a date-time without offset is read as local time
  return Number.isNaN(d.getTime()) ? dateTime : withOffset(d);
}

/** A C2 read marker as the dialect sends it: R4 adds the extension list, its date-time with an offset. */
export function readMarkerWire(dialect: Dialect, marker: ReadMarker): unknown {
  if (dialect === 'interface') return marker;
  return marker.map((op) => ({ ...op, value: [{ ...op.value, valueDateTime: withLocalOffset(op.value.valueDateTime) }] }));
}

/** An M3 order as the dialect sends it: notes as strings (interface) or Annotations (R4). */
export function orderWire(dialect: Dialect, m: MedicationRequestCreate): MedicationRequestCreate {
  if (!m.note) return m;
  const note =
    dialect === 'r4'
      ? m.note.map((n) => (typeof n === 'string' ? { text: n } : n))
      : m.note.map((n) => (typeof n === 'string' ? n : n.text));
  return { ...m, note };
}

/**
 * A reference search parameter's value as the dialect sends it: the interface's bare ids, or R4's typed
 * references (`Schedule/<id>`; FHIR servers such as Medplum match a bare id to nothing). A value already typed, or
 * a comma list of ids, is handled item by item.
 */
export function searchReference(dialect: Dialect, type: string, value: string): string {
  if (dialect === 'interface') return value;
  return value
    .split(',')
    .map((v) => (v.includes('/') ? v : `${type}/${v}`))
    .join(',');
}
