/** The TUI without a profile: start an embedded sandbox here (s), or quit and add a profile. */
import { Box, Text } from 'ink';
import { useRef, useState } from 'react';
import { errorText } from '../desk.js';
import { fit } from '../format.js';
import { useKeys } from '../keys/useKeys.js';
import { useTerminalSize } from '../terminal.js';

export function Welcome<T>(p: { startSandbox?: () => Promise<T>; onStarted: (started: T) => void; quit: () => void }) {
  const { columns, rows } = useTerminalSize();
  const [msg, setMsg] = useState<string | undefined>();
  /** A second s/Enter while the sandbox starts must not start another one. */
  const starting = useRef(false);
  const start = async () => {
    if (!p.startSandbox || starting.current) return;
    starting.current = true;
    setMsg('Starting the sandbox…');
    try {
      p.onStarted(await p.startSandbox());
    } catch (e) {
      setMsg(errorText(e));
    } finally {
      starting.current = false;
    }
  };
  useKeys(
    [
      { keys: ['s', 'enter'], label: 'start a sandbox', run: () => void start() },
      { keys: ['q', 'esc'], label: 'quit', run: () => p.quit() },
    ],
    { layer: 'modal', capture: true },
  );
  const lines = [
    'pdesk — no profile yet',
    '',
    'There is no saved profile to open.',
    '',
    p.startSandbox ? '  s   start an embedded sandbox (practice system + portal) and open it here' : '',
    '  q   quit, then add a profile:',
    '        pdesk profile import <file.json> --default   (examples in profiles/)',
    '        pdesk profile add',
    '',
    msg ?? '',
  ];
  return (
    <Box flexDirection="column" height={rows - 1} overflowY="hidden">
      {lines.slice(0, rows - 1).map((l, i) => (
        <Text key={i} bold={i === 0} color={i === lines.length - 1 ? 'yellow' : undefined} wrap="truncate">
          {fit(l, columns) || ' '}
        </Text>
      ))}
    </Box>
  );
}
