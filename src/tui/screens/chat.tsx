/** Chat screen — placeholder until it is written on the framework (see types.ts). */
import React from 'react';
import { Pane } from '../components/Pane.js';
import type { ScreenProps } from './types.js';

export function ChatScreen({ width, height }: ScreenProps) {
  return <Pane title="Chat" lines={['', 'Chat: chat threads (C1–C4) — coming.', '', 'Use the subcommands meanwhile (pdesk --help).']} width={width} height={height} />;
}
