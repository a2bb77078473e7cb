/**
 * Check screen (`6`, `:check`): the read-only conformance suite of `pdesk check` on the desk's profile, with
 * live progress (each check waiting, running, done), grouped by area; Enter on a check shows its messages and
 * its requests and answers (redacted), `y` the check as JSON; `r` runs it again; Esc stops a run. Writes are
 * never sent from here (`pdesk check --write` does them). State: hooks/useCheck.ts; text: check/format.ts.
 */
import { Box, Text } from 'ink';
import { ListView } from '../components/ListView.js';
import { ScrollText } from '../components/ScrollText.js';
import { useDesk } from '../desk.js';
import { clean, fit } from '../format.js';
import { type Check, type CheckRow, useCheck } from '../hooks/useCheck.js';
import { useInspectKeys } from '../inspect/context.js';
import { useKeys } from '../keys/useKeys.js';
import { StepStackView, useStepBack } from '../steps.js';
import { CHECK_COLUMNS, CHECK_HEADER, CHECK_WIDTHS, checkDetail, checkRow } from './check/format.js';
import type { ScreenProps } from './types.js';

const rawOf = (r: CheckRow) => (r.result ? { title: `check ${r.id}`, value: r.result, name: `check-${r.id}` } : undefined);

function summaryLine(c: Check): string {
  const done = c.rows.filter((r) => r.state === 'done').length;
  const count = (k: string) => c.rows.filter((r) => r.result?.result === k).length;
  const progress = c.running ? `running ${done}/${c.rows.length}` : c.stopped ? `stopped after ${done}` : `${done} checks`;
  return `${progress} · ${count('pass')} passed · ${count('fail')} failed · ${count('error')} errors · ${count('skip')} skipped · ${count('omit')} omitted`;
}

function ListStep({ c, width, height, active }: { c: Check; width: number; height: number; active: boolean }) {
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

function DetailStep({ c, id, width, height, active }: { c: Check; id: string; width: number; height: number; active: boolean }) {
  const r = c.resultOf(id);
  useInspectKeys({ raw: () => (r ? { title: `check ${id}`, value: r, name: `check-${id}` } : undefined) }, { active });
  return <ScrollText title={`Check ${id}`} lines={r ? checkDetail(r) : ['(not run)']} width={width} height={height} active={active} />;
}

export function CheckScreen({ width, height }: ScreenProps) {
  const c = useCheck();
  useStepBack(c.stack);
  useKeys([{ keys: ['r'], label: 'run again', help: 'run the read-only suite again (Esc stops a run)', run: c.run }]);
  return (
    <Box flexDirection="column" height={height} overflowY="hidden">
      <StepStackView stack={c.stack} height={height}>
        {(step, { active }) =>
          step.kind === 'list' ? (
            <ListStep c={c} width={width} height={height} active={active} />
          ) : (
            <DetailStep c={c} id={step.id} width={width} height={height} active={active} />
          )
        }
      </StepStackView>
    </Box>
  );
}
