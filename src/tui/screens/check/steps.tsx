/**
 * The steps of the Check screen, one small component each: they draw what the hook (useCheck.ts) holds.
 * `active` is true for the top step only.
 */
import { Text } from 'ink';
import { ListView } from '../../components/ListView.js';
import { ScrollText } from '../../components/ScrollText.js';
import { useDesk } from '../../desk.js';
import { clean, fit } from '../../format.js';
import type { Check, CheckRow } from './useCheck.js';
import { useInspectKeys } from '../../inspect/context.js';
import type { StepViewProps } from '../../steps.js';
import { CHECK_COLUMNS, CHECK_HEADER, CHECK_WIDTHS, checkDetail, checkRow } from './format.js';

export interface StepProps extends StepViewProps {
  c: Check;
}

const rawOf = (r: CheckRow) => (r.result ? { title: `check ${r.id}`, value: r.result, name: `check-${r.id}` } : undefined);

function summaryLine(c: Check): string {
  const done = c.rows.filter((r) => r.state === 'done').length;
  const count = (k: string) => c.rows.filter((r) => r.result?.result === k).length;
  const progress = c.running ? `running ${done}/${c.rows.length}` : c.stopped ? `stopped after ${done}` : `${done} checks`;
  return `${progress} · ${count('pass')} passed · ${count('fail')} failed · ${count('error')} errors · ${count('skip')} skipped · ${count('omit')} omitted`;
}

export function ListStep({ c, width, height, active }: StepProps) {
  const { profile } = useDesk();
  const failing = c.rows.some((r) => r.result?.result === 'fail' || r.result?.result === 'error');
  return (
    <>
      <Text wrap="truncate" color={failing ? 'red' : c.running ? 'yellow' : 'green'}>
        {fit(
          clean(
            // The body dialect is named when it is not the interface's (decisions.md §16).
            `pdesk check · ${profile.name} · appt API ${profile.appointmentApi}${profile.dialect === 'r4' ? ' · dialect r4' : ''} · read-only · ${summaryLine(c)}`,
          ),
          width,
        )}
      </Text>
      <ListView<CheckRow>
        items={c.rows}
        width={width}
        height={height - 1}
        title="Checks (GET only; write checks: pdesk check --write)"
        header={`  ${CHECK_HEADER.map((h, i) => (CHECK_WIDTHS[i] ? h.padEnd(CHECK_WIDTHS[i]!) : h)).join('  ')}`}
        render={checkRow}
        filterText={(r) => `${r.id} ${r.area} ${r.result?.result ?? r.state} ${r.title}`}
        groupOf={(r) => r.area}
        renderGroup={(g, n) => `${g[0]!.toUpperCase()}${g.slice(1)} (${n})`}
        itemKey={(r) => r.id}
        onOpen={c.open}
        openLabel="details"
        sort={{ columns: CHECK_COLUMNS }}
        refreshedAt={c.startedAt}
        raw={rawOf}
        active={active}
        empty="Loading the suite…"
      />
    </>
  );
}

export function DetailStep({ c, id, width, height, active }: StepProps & { id: string }) {
  const r = c.resultOf(id);
  useInspectKeys({ raw: () => (r ? { title: `check ${id}`, value: r, name: `check-${id}` } : undefined) }, { active });
  return <ScrollText title={`Check ${id}`} lines={r ? checkDetail(r) : ['(not run)']} width={width} height={height} active={active} />;
}
