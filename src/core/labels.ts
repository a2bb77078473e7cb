/**
 * Short human labels of resource fields, shared by the CLI tables and the TUI screens. No zod or undici here
 * (type imports only), so command files may import it statically. Results are raw server text: callers
 * sanitise before display (the CLI's table renderer and the TUI's `clean` do).
 */
import type { PractitionerRole } from './schemas/appointment.js';
import type { MedicationRequest } from './schemas/medication.js';

/**
 * `Dr. Anna Berg (PractitionerRole/1001)`, or the bare reference when it has no display; '' when there is none.
 * `idOnly` gives `Dr. Anna Berg (1001)` where the resource type goes without saying (a practitioner column).
 */
export function referenceLabel(r: { reference?: string; display?: string } | undefined, o: { idOnly?: boolean } = {}): string {
  if (!r?.reference) return r?.display ?? '';
  if (!r.display) return r.reference;
  const id = o.idOnly && r.reference.includes('/') ? r.reference.slice(r.reference.lastIndexOf('/') + 1) : r.reference;
  return `${r.display} (${id})`;
}

/** `60 tablet` from `dispenseRequest.initialFill.quantity`. */
export function quantityText(r: MedicationRequest): string | undefined {
  const q = r.dispenseRequest?.initialFill?.quantity;
  if (!q) return undefined;
  const unit = q.unit ?? q.code;
  return unit ? `${q.value} ${unit}` : String(q.value);
}

/** `2026-03-01..2026-03-31` from the first extension carrying a `valuePeriod`. */
export function periodText(r: MedicationRequest): string | undefined {
  const p = r.extension?.find((e) => e.valuePeriod)?.valuePeriod;
  if (!p || (!p.start && !p.end)) return undefined;
  return `${p.start ?? ''}..${p.end ?? ''}`;
}

/** The texts of a request's notes: the interface's strings or FHIR R4's Annotations (`{text}`). */
export function noteTexts(r: { note?: ReadonlyArray<string | { text: string }> }): string[] {
  return (r.note ?? []).map((n) => (typeof n === 'string' ? n : n.text));
}

/** The practitioner's name: the interface's `name`, else FHIR R4's `practitioner.display`. */
export function roleName(r: PractitionerRole): string | undefined {
  return r.name ?? r.practitioner?.display;
}

/** A role's speciality codings: the interface's `speciality`, else those of FHIR R4's `specialty` list. */
export function roleSpecialities(r: PractitionerRole): ReadonlyArray<{ code: string; display?: string }> {
  return r.speciality?.coding ?? (r.specialty ?? []).flatMap((c) => c.coding ?? []);
}
