/** Every command group of cli.md, one file per noun. */
import type { Command } from 'commander';
import { apiCommand } from './api.js';
import { auditCommand } from './audit.js';
import { authCommand } from './auth.js';
import { appointmentTypesCommand } from './appointment-types.js';
import { appointmentsCommand } from './appointments.js';
import { chatCommand } from './chat.js';
import { completionCommand } from './completion.js';
import { checkCommand } from './check.js';
import { doctorCommand } from './doctor.js';
import { listenCommand } from './listen.js';
import { medicationsCommand } from './medications.js';
import { notificationsCommand } from './notifications.js';
import { pharmaciesCommand } from './pharmacies.js';
import { profileCommand } from './profile.js';
import { sandboxCommand } from './sandbox.js';
import { practitionersCommand } from './practitioners.js';
import { schedulesCommand } from './schedules.js';
import { slotsCommand } from './slots.js';
import { storeCommand } from './store.js';
import { traceCommand } from './trace.js';
import { tuiCommand } from './tui.js';

/**
 * Every command group, by name: the name is the one its maker gives its Command (a test checks), so that a command
 * line builds only the group it runs (buildProgram).
 */
export const commands: Array<readonly [name: string, make: () => Command]> = [
  ['profile', profileCommand],
  ['api', apiCommand],
  ['appointment-types', appointmentTypesCommand],
  ['practitioners', practitionersCommand],
  ['schedules', schedulesCommand],
  ['slots', slotsCommand],
  ['appointments', appointmentsCommand],
  ['medications', medicationsCommand],
  ['pharmacies', pharmaciesCommand],
  ['chat', chatCommand],
  ['notifications', notificationsCommand],
  ['listen', listenCommand],
  ['sandbox', sandboxCommand],
  ['check', checkCommand],
  ['doctor', doctorCommand],
  ['auth', authCommand],
  ['audit', auditCommand],
  ['store', storeCommand],
  ['trace', traceCommand],
  ['tui', tuiCommand],
  ['completion', completionCommand],
];
