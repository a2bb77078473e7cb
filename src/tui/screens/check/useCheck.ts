/**
 * State of the Check screen: the read-only suite of `pdesk check` (src/core/check) run on the desk's profile
 * with live progress — each check waiting, running, then its result — through desk.run (Esc stops the run:
 * the checks not yet run are skipped). Never with writes: the write checks are `omit`, and the run's client
 * refuses anything but GET. Enter on a check shows its messages and its redacted requests and answers.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CheckInfo, CheckReport, CheckResult, InputName } from '../../../core/check/model.js';
import { type Connection, useDesk } from '../../desk.js';
import { useStepStack } from '../../steps.js';

export type CheckStep = { kind: 'list' } | { kind: 'detail'; id: string };

export type CheckRow = CheckInfo & { state: 'waiting' | 'running' | 'done'; result?: CheckResult };

/** How the skip reasons name an input here: there are no options in the TUI, the profile's `check` block is the way. */
const LABEL: Record<InputName | 'write' | 'only', string> = {
  serviceCategory: 'a service category',
  patient: 'a test patient',
  encounter: 'a test encounter',
  email: 'a test address',
  write: 'pdesk check --write',
  only: '--only',
};

/** What a check run says of the connection: online if anything answered, offline if nothing could be reached. */
function reached(rep: CheckReport): Connection | undefined {
  const all = rep.results.flatMap((r) => r.exchanges);
  if (all.some((x) => x.status !== undefined)) return 'online';
  return all.length ? 'offline' : undefined;
}

export function useCheck() {
  const desk = useDesk();
  const stack = useStepStack<CheckStep>({ kind: 'list' });
  const [rows, setRows] = useState<CheckRow[]>([]);
  const [report, setReport] = useState<CheckReport | undefined>();
  const [running, setRunning] = useState(false);
  const [stopped, setStopped] = useState(false);
  const [startedAt, setStartedAt] = useState<Date | undefined>();
  const runId = useRef(0);
  /** Stops the run in progress (r starts another): the screen's own run, never the other screens' work. */
  const stopRun = useRef<() => void>(() => undefined);

  const run = useCallback(async () => {
    stopRun.current();
    const id = ++runId.current;
    const { runSuite, suiteInfo } = await import('../../../core/check/index.js');
    if (id !== runId.current) return;
    setRows(suiteInfo().map((c) => ({ ...c, state: 'waiting' })));
    setReport(undefined);
    setStopped(false);
    setRunning(true);
    setStartedAt(new Date());
    const mine = (fn: () => void) => id === runId.current && fn();
    let signal: AbortSignal | undefined;
    const r = await desk.run(
      `Checking ${desk.profile.name} (read-only)`,
      (s) => {
        const own = new AbortController();
        stopRun.current = () => own.abort();
        signal = AbortSignal.any([s, own.signal]);
        return runSuite({
          profile: desk.profile,
          signal,
          label: (f) => LABEL[f],
          onStart: (c) => mine(() => setRows((rs) => rs.map((x) => (x.id === c.id ? { ...x, state: 'running' } : x)))),
          onResult: (res) => mine(() => setRows((rs) => rs.map((x) => (x.id === res.id ? { ...x, state: 'done', result: res } : x)))),
        });
      },
      {
        okText: (rep) => {
          const s = rep.summary;
          const head = signal?.aborted ? 'Stopped: the checks not run are skipped. ' : '';
          return `${head}${s.pass} passed, ${s.fail} failed, ${s.error} errors, ${s.skip} skipped, ${s.omit} omitted. Writes: pdesk check --write.`;
        },
        // A run with failures or errors is not a success to read in green.
        okKind: (rep) => (rep.summary.fail || rep.summary.error ? 'error' : 'ok'),
        // The run succeeds whatever the server did: its answers say whether it was reached.
        connection: reached,
      },
    );
    mine(() => {
      setRunning(false);
      setStopped(!!signal?.aborted);
      if (r.ok) setReport(r.value);
    });
  }, [desk]);

  // Run once when the screen opens (and again on the new client after a profile switch); later runs with r.
  useEffect(() => {
    void run();
    return () => {
      runId.current++;
      stopRun.current();
    };
  }, [run]);

  return {
    stack,
    rows,
    report,
    running,
    stopped,
    startedAt,
    run: () => void run(),
    open: (row: CheckRow) => {
      if (row.state !== 'done') return desk.info(`${row.id} has not run yet.`);
      stack.push({ kind: 'detail', id: row.id });
    },
    resultOf: (id: string) => rows.find((r) => r.id === id)?.result,
  };
}

export type Check = ReturnType<typeof useCheck>;
