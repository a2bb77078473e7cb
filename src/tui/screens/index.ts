/** The screens of the TUI, in tab order (keys 0–6). See types.ts for the contract. */
import { AppointmentsScreen } from './appointments/screen.js';
import { ChatScreen } from './chat/screen.js';
import { CheckScreen } from './check/screen.js';
import { MedsScreen } from './meds/screen.js';
import { NotifyScreen } from './notify/screen.js';
import { SlotsScreen } from './slots/screen.js';
import { SystemsScreen } from './systems/screen.js';
import type { Screen, ScreenId } from './types.js';

export const SCREENS: readonly Screen[] = [
  {
    id: 'systems',
    key: '0',
    title: 'Systems',
    command: 'systems',
    aliases: ['system', 'sys', 'profiles'],
    component: SystemsScreen,
    acrossProfiles: true,
  },
  { id: 'slots', key: '1', title: 'Slots', command: 'slots', aliases: ['slot', 's'], component: SlotsScreen },
  {
    id: 'appointments',
    key: '2',
    title: 'Appointments',
    command: 'appointments',
    aliases: ['appointment', 'appt', 'a'],
    component: AppointmentsScreen,
  },
  { id: 'chat', key: '3', title: 'Chat', command: 'chat', aliases: ['c'], component: ChatScreen },
  { id: 'notify', key: '4', title: 'Notify', command: 'notify', aliases: ['notifications', 'n'], component: NotifyScreen },
  { id: 'meds', key: '5', title: 'Meds', command: 'meds', aliases: ['medications', 'm'], component: MedsScreen },
  { id: 'check', key: '6', title: 'Check', command: 'check', aliases: ['checks', 'conformance'], component: CheckScreen },
];

export function screenFor(command: string): Screen | undefined {
  const c = command.trim().toLowerCase();
  if (!c) return undefined;
  const exact = SCREENS.find((s) => s.command === c || s.id === c || s.aliases?.includes(c) || s.key === c);
  if (exact) return exact;
  // A unique prefix works too (`:app`, `:me`).
  const hits = SCREENS.filter((s) => s.command.startsWith(c));
  return hits.length === 1 ? hits[0] : undefined;
}

export type { Screen, ScreenId };
