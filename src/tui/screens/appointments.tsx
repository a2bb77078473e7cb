/** Appointments screen — being written. */
import React from 'react';
import { Pane } from '../components/Pane.js';
import type { ScreenProps } from './types.js';

export function AppointmentsScreen({ width, height }: ScreenProps) {
  return <Pane title="Appointments" lines={['', 'coming.']} width={width} height={height} />;
}
