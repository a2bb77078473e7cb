/** Slots screen — being written. */
import React from 'react';
import { Pane } from '../components/Pane.js';
import type { ScreenProps } from './types.js';

export function SlotsScreen({ width, height }: ScreenProps) {
  return <Pane title="Slots" lines={['', 'coming.']} width={width} height={height} />;
}
