/**
 * The X-ray view: what src/core/xray gathered about a case, by section; Enter opens an element (its raw view,
 * or the screen that holds it), `y` its raw view, `r` gathers again, Esc back. Gathering runs through
 * desk.run (progress in the status line, Esc abandons it), with read-only requests only.
 */
import { Text } from 'ink';
import { useCallback, useEffect, useState } from 'react';
import { type Xray, type XrayNode, xrayAppointment, xrayMedication, xrayThread } from '../../core/xray/index.js';
import { ListView } from '../components/ListView.js';
import { useDesk } from '../desk.js';
import { clean, fit, type Seg } from '../format.js';
import { useKeys } from '../keys/useKeys.js';
import { type Inspect, type RawItem, type XraySubject, useInspectKeys } from './context.js';

const MARK: Record<XrayNode['state'], Seg> = {
  found: { text: '● ', color: 'green' },
  'not-found': { text: '○ ', color: 'yellow' },
  error: { text: '✗ ', color: 'red' },
  info: { text: '· ', color: 'gray' },
};

export function subjectTitle(s: XraySubject): string {
  return s.kind === 'appointment'
    ? `appointment ${s.appointment.id}`
    : s.kind === 'thread'
      ? `chat ${s.thread}`
      : `medication request ${s.request.id}`;
}

export function nodeRaw(n: XrayNode): RawItem | undefined {
  if (n.resource === undefined) return undefined;
  return { title: `${n.section}: ${n.label}`, value: n.resource, name: `xray-${n.section.split(' ')[0]!.toLowerCase()}` };
}

const row = (n: XrayNode, w: number): Seg[] => {
  const indent = n.depth ? '    ' : '  ';
  const tail = n.jump ? '  → Enter opens it' : '';
  return [
    { text: indent },
    MARK[n.state],
    { text: fit(clean(n.label), Math.max(0, w - indent.length - 2 - tail.length)) },
    { text: tail, dim: true },
  ];
};

export interface XrayViewProps {
  subject: XraySubject;
  inspect: Inspect;
  width: number;
  height: number;
  active: boolean;
}

export function XrayView({ subject, inspect, width, height, active }: XrayViewProps) {
  const desk = useDesk();
  const [result, setResult] = useState<Xray | undefined>();
  const [at, setAt] = useState<Date | undefined>();
  const [failed, setFailed] = useState(false);

  const load = useCallback(async () => {
    setFailed(false);
    const r = await desk.run(`X-ray of ${subjectTitle(subject)}`, async (signal) => {
      const store = desk.store;
      const ctx = { client: desk.client, profile: desk.profile, ...(store ? { store } : {}), signal };
      if (subject.kind === 'appointment') return xrayAppointment(ctx, subject.appointment);
      if (subject.kind === 'medication') return xrayMedication(ctx, subject.request, subject.rows);
      if (!store) throw new Error("There is no desk's store here (no config folder): a chat thread cannot be X-rayed.");
      return xrayThread(store, desk.profile.name, subject.thread);
    });
    if (r.ok) {
      setResult(r.value);
      setAt(new Date());
    } else setFailed(true);
  }, [desk, subject]);

  useEffect(() => {
    void load();
  }, [load]);

  const [selected, setSelected] = useState<XrayNode | undefined>();
  useKeys(
    [
      { keys: ['r'], label: 'again', help: 'gather the X-ray again', run: () => void load() },
      { keys: ['esc'], label: 'back', help: 'back', run: () => inspect.back() },
    ],
    { active },
  );
  useInspectKeys({ raw: () => (selected ? nodeRaw(selected) : undefined) }, { active });
  const open = (n: XrayNode) => {
    if (n.jump) return inspect.jump(n.jump);
    const raw = nodeRaw(n);
    if (raw) inspect.raw(raw);
    else desk.info(clean(`${n.section}: nothing to open (${n.label}).`));
  };
  return (
    <>
      <Text bold color="magenta" wrap="truncate">
        {fit(`X-ray · ${clean(result?.title ?? subjectTitle(subject))} · read-only (GET and the desk's store)`, width)}
      </Text>
      <ListView<XrayNode>
        items={result?.nodes ?? []}
        width={width}
        height={height - 1}
        title="Related elements (● found  ○ not found  ✗ error)"
        render={row}
        groupOf={(n) => n.section}
        renderGroup={(g) => g}
        itemKey={(n) => n.key}
        onSelect={setSelected}
        onOpen={open}
        openLabel="open"
        refreshedAt={at}
        active={active}
        empty={failed ? 'Not gathered (see the status line): r to try again.' : 'Gathering…'}
      />
    </>
  );
}
