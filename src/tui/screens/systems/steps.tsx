/**
 * The step of the Systems screen: the profiles' list with the selected one in full below. It draws what the
 * hook (useSystems.ts) holds.
 */
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import type { SystemStatus } from '../../../core/systems/monitor.js';
import { redactProfile } from '../../../profiles/redact.js';
import { ListView } from '../../components/ListView.js';
import { useDesk } from '../../desk.js';
import { fit } from '../../format.js';
import { useKeys } from '../../keys/useKeys.js';
import type { StepViewProps } from '../../steps.js';
import { SYSTEM_COLUMNS, detailLines, systemsLayout } from './format.js';
import type { Systems } from './useSystems.js';

export interface StepProps extends StepViewProps {
  s: Systems;
}

const DETAIL_LINES = 6;

/** What `y` shows: the status with the profile's secrets redacted. */
const rawOf = (s: SystemStatus) => ({
  title: `profile ${s.name} and its probes`,
  value: { ...s, profile: s.profile ? redactProfile(s.profile) : undefined },
  name: `system-${s.name}`,
});

export function ListStep({ s, width, height, active }: StepProps) {
  const desk = useDesk();
  useKeys([{ keys: ['r'], label: 'refresh', help: 'probe every profile again now (also every 30 s)', run: s.refresh }], { active });
  const names = useMemo(() => s.statuses.map((x) => x.name), [s.statuses]);
  const layout = useMemo(() => systemsLayout(width - 2, names), [width, names]);
  const latest = s.statuses.reduce<string | undefined>(
    (a, x) => (x.refreshedAt && (!a || x.refreshedAt > a) ? x.refreshedAt : a),
    undefined,
  );
  const shown = s.selected ? (s.statuses.find((x) => x.name === s.selected!.name) ?? s.selected) : undefined;
  const detail = shown ? detailLines(shown) : [];
  const listH = Math.max(3, height - DETAIL_LINES);
  const current = desk.profile.name;
  return (
    <Box flexDirection="column" height={height} overflowY="hidden">
      <ListView<SystemStatus>
        items={s.statuses}
        width={width}
        height={listH}
        title={`Systems — ${s.statuses.length} profile${s.statuses.length === 1 ? '' : 's'}${s.probing ? ' · probing…' : ''}`}
        header={`  ${layout.header.map((h, i) => (layout.widths[i] ? h.padEnd(layout.widths[i]!) : h)).join('  ')}`}
        render={(x) => layout.cells(x, current)}
        filterText={(x) => `${x.name} ${x.profile?.environment ?? ''} ${x.lastError?.text ?? ''}`}
        itemKey={(x) => x.name}
        initialKey={current}
        onSelect={s.select}
        onOpen={s.open}
        openLabel="switch"
        sort={{ columns: SYSTEM_COLUMNS, initial: { key: 'n', desc: false } }}
        refreshedAt={latest}
        raw={rawOf}
        active={active}
        empty={s.problem ?? (s.loaded ? 'No profiles.' : 'Reading the profiles…')}
      />
      <Text dimColor wrap="truncate">
        {'─'.repeat(Math.max(0, width))}
      </Text>
      {Array.from({ length: DETAIL_LINES - 1 }, (_, i) => (
        <Text key={i} wrap="truncate" color={i === DETAIL_LINES - 2 && shown?.lastError ? 'red' : undefined}>
          {fit(detail[i] ?? '', width) || ' '}
        </Text>
      ))}
    </Box>
  );
}
