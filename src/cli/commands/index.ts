/** Every command group of cli.md, one file per noun. */
import type { Command } from 'commander';
import { appointmentTypesCommand } from './appointment-types.js';
import { medicationsCommand } from './medications.js';
import { pharmaciesCommand } from './pharmacies.js';

export const commands: Array<() => Command> = [appointmentTypesCommand, medicationsCommand, pharmaciesCommand];
