/**
 * Short human labels of resource fields, shared by the CLI tables and the TUI screens. No zod or undici here
 * (type imports only), so command files may import it statically. Results are raw server text: callers
 * sanitise before display (the CLI's table renderer and the TUI's `clean` do).
 */
import type { MedicationRequest } from './schemas/medication.js';

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
