/**
 * X-ray: what is related to a case, gathered read-only (model.ts). appointment.ts (slot, schedule, role,
 * patient, cancel responses, the patient's threads and notifications), thread.ts (encounter state, owner, read
 * markers, from the desk's store), medication.ts (pharmacy, the request it reorders, the orders based on it).
 */
export * from './model.js';
export {
  CANCEL_SOURCES,
  type CancelSource,
  type XrayContext,
  cancelsFromParticipants,
  categoryOf,
  xrayAppointment,
} from './appointment.js';
export { type XrayStore, xrayThread } from './thread.js';
export { xrayMedication } from './medication.js';
export { knownEmails, patientNotifications, patientThreads } from './patient.js';
