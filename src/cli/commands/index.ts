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
import { traceCommand } from './trace.js';
import { tuiCommand } from './tui.js';

export const commands: Array<() => Command> = [
  profileCommand,
  apiCommand,
  appointmentTypesCommand,
  practitionersCommand,
  schedulesCommand,
  slotsCommand,
  appointmentsCommand,
  medicationsCommand,
  pharmaciesCommand,
  chatCommand,
  notificationsCommand,
  listenCommand,
  sandboxCommand,
  checkCommand,
  doctorCommand,
  authCommand,
  auditCommand,
  traceCommand,
  tuiCommand,
  completionCommand,
];
