/** Notify screen — placeholder until it is written on the framework (see types.ts). */
import React from 'react';
import { Pane } from '../components/Pane.js';
import type { ScreenProps } from './types.js';

export function NotifyScreen({ width, height }: ScreenProps) {
  return <Pane title="Notify" lines={['', 'Notify: notifications (C5) — coming.', '', 'Use the subcommands meanwhile (pdesk --help).']} width={width} height={height} />;
}
