/**
 * The suite: every check in the order it runs (grouped by area: appointments, chat, notifications, medication),
 * and `--only`'s selection by operation id (`A4`) or check id (`A4-free-only`).
 */
import { FieldError } from '../errors.js';
import { appointmentChecks } from './appointments.js';
import { chatChecks, notificationChecks } from './chat.js';
import type { CheckDef } from './context.js';
import { medicationChecks } from './medication.js';
import type { CheckInfo } from './model.js';

export const SUITE: readonly CheckDef[] = [...appointmentChecks, ...chatChecks, ...notificationChecks, ...medicationChecks];

/** What each check is, without its code (a screen lists these before the run). */
export function suiteInfo(): CheckInfo[] {
  return SUITE.map(({ run: _run, ...info }) => info);
}

/**
 * The checks `only` names, in suite order: operation ids select every check of the operation, check ids one
 * check; any case. A name that matches nothing is a FieldError of `only`. No names: the whole suite.
 */
export function selectChecks(only: readonly string[] | undefined): CheckDef[] {
  const names = (only ?? []).map((n) => n.trim()).filter(Boolean);
  if (!names.length) return [...SUITE];
  const wanted = new Set<CheckDef>();
  for (const name of names) {
    const n = name.toLowerCase();
    const hits = SUITE.filter((c) => c.op.toLowerCase() === n || c.id.toLowerCase() === n);
    if (!hits.length)
      throw new FieldError(
        'only',
        `names no operation or check: "${name}" (operations A1–A7, C1–C5, M1–M4, or a check id such as A4-free-only)`,
      );
    for (const h of hits) wanted.add(h);
  }
  return SUITE.filter((c) => wanted.has(c));
}
