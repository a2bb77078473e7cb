/** Every command group of cli.md, one file per noun. */
import type { Command } from 'commander';
import { appointmentTypesCommand } from './appointment-types.js';

export const commands: Array<() => Command> = [appointmentTypesCommand];
