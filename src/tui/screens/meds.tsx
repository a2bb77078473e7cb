/** Meds screen — placeholder until it is written on the framework (see types.ts). */
import React from 'react';
import { Pane } from '../components/Pane.js';
import type { ScreenProps } from './types.js';

export function MedsScreen({ width, height }: ScreenProps) {
  return <Pane title="Meds" lines={['', 'Meds: medication requests and orders (M1–M4) — coming.', '', 'Use the subcommands meanwhile (pdesk --help).']} width={width} height={height} />;
}
