/** Every command group of cli.md, one file per noun. */
import type { Command } from 'commander';
import { apiCommand } from './api/api.js';
import { auditCommand } from './audit/audit.js';
import { authCommand } from './auth/status.js';
import { appointmentTypesCommand } from './appointment-types/list.js';
import { appointmentsCommand } from './appointments/book.js';
import { chatCommand } from './chat/index.js';
import { completionCommand } from './completion/index.js';
import { checkCommand } from './check/check.js';
import { doctorCommand } from './doctor/doctor.js';
import { listenCommand } from './listen/listen.js';
import { medicationsCommand } from './medications/order.js';
import { notificationsCommand } from './notifications/bulk.js';
import { pharmaciesCommand } from './pharmacies/search.js';
import { profileCommand } from './profile/add.js';
import { sandboxCommand } from './sandbox/sandbox.js';
import { practitionersCommand } from './practitioners/list.js';
import { schedulesCommand } from './schedules/list.js';
import { slotsCommand } from './slots/list.js';
import { storeCommand } from './store/status.js';
import { traceCommand } from './trace/show.js';
import { tuiCommand } from './tui/tui.js';

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
