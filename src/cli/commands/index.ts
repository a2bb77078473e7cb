/**
 * Every command of cli.md, by noun: `<noun>/index.ts` defines the noun's verbs (names, arguments, options, help) and
 * loads a verb's code, `<noun>/<verb>.ts`, only when its command line runs (src/cli/verb.ts).
 */
import type { Command } from 'commander';
import { apiCommand } from './api/index.js';
import { auditCommand } from './audit/index.js';
import { authCommand } from './auth/index.js';
import { appointmentTypesCommand } from './appointment-types/index.js';
import { appointmentsCommand } from './appointments/index.js';
import { chatCommand } from './chat/index.js';
import { completionCommand } from './completion/index.js';
import { checkCommand } from './check/index.js';
import { doctorCommand } from './doctor/index.js';
import { listenCommand } from './listen/index.js';
import { medicationsCommand } from './medications/index.js';
import { notificationsCommand } from './notifications/index.js';
import { pharmaciesCommand } from './pharmacies/index.js';
import { profileCommand } from './profile/index.js';
import { sandboxCommand } from './sandbox/index.js';
import { practitionersCommand } from './practitioners/index.js';
import { schedulesCommand } from './schedules/index.js';
import { slotsCommand } from './slots/index.js';
import { storeCommand } from './store/index.js';
import { traceCommand } from './trace/index.js';
import { tuiCommand } from './tui/index.js';

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
