/** One MedicationRequest in table mode (`medications show`, and `medications order`'s answer). */
import { noteTexts, periodText, quantityText, referenceLabel } from '../../../core/labels.js';
import type { MedicationRequest } from '../../../core/schemas/medication.js';
import { renderRecord } from '../../output.js';

/** The fields an operator reads, in a fixed order. */
export function detail(r: MedicationRequest, width: number): string {
  const ref = (x?: { reference: string; display?: string }) => referenceLabel(x) || undefined;
  const fields: Record<string, string | undefined> = {
    id: r.id,
    status: r.status,
    intent: r.intent,
    medication: ref(r.medicationReference),
    patient: ref(r.subject),
    pharmacy: ref(r.performer),
    quantity: quantityText(r),
    period: periodText(r),
    authoredOn: r.authoredOn,
    basedOn: r.basedOn?.map((b) => b.reference).join(', '),
    note: noteTexts(r).join(' | '),
  };
  const present = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== ''));
  return renderRecord(present, width);
}
