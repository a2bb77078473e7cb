/**
 * Appointments screen: the list (A5) with status and participants; Enter shows one appointment; `c` cancels
 * the selected one (A7) after a form (who declines, comment) and a confirmation showing the body.
 */
import { Box, Text } from 'ink';
import type React from 'react';
import { useCallback, useEffect, useState } from 'react';
import { buildCancellation, cancelAppointment, conceptLabel, searchAppointments, utcParts } from '../../core/api/appointments.js';
import { referenceLabel } from '../../core/labels.js';
import type { Appointment, AppointmentResponseCreate } from '../../core/schemas/appointment.js';
import { Confirm } from '../components/Confirm.js';
import { Form, type FormValues } from '../components/Form.js';
import { ListView } from '../components/ListView.js';
import { Pane } from '../components/Pane.js';
import { useDesk } from '../desk.js';
import { clean, columns, fit, jsonLines } from '../format.js';
import { useKeys, useRefState } from '../keys.js';
import type { ScreenProps } from './types.js';

type Step = 'list' | 'detail' | 'cancel' | 'confirm';

const LIST_LIMIT = 5000;

/** Column widths for a row of `width` (the selection marker takes 2 more): the comment only when there is room. */
function widthsFor(width: number): number[] {
  const fixed = [10, 9, 16];
  const rest = width - fixed.reduce((a, b) => a + b, 0) - 2 * fixed.length;
  if (rest >= 80) return [...fixed, 26, 28, 0];
  const each = Math.max(8, Math.floor((rest - 2) / 2));
  return [...fixed, each, 0];
}

function when(a: Appointment): string {
  const s = utcParts(a.start);
  return s.day ? `${s.day} ${s.time}` : '';
}

/** Participants of a type: `Emma Jansen (pat-1)`, or only the name in a narrow column; a status other than accepted in brackets. */
function party(a: Appointment, type: string, narrow = false): string {
  return (a.participant ?? [])
    .filter((p) => p.actor?.reference.startsWith(`${type}/`))
    .map(
      (p) =>
        `${narrow && p.actor?.display ? p.actor.display : referenceLabel(p.actor, { idOnly: true })}${p.status && p.status !== 'accepted' ? ` [${p.status}]` : ''}`,
    )
    .join(', ');
}

export function appointmentLine(a: Appointment, width: number): string {
  const w = widthsFor(width);
  const narrow = (w[3] ?? 0) < 22;
  const cells = [a.id, a.status, when(a), party(a, 'Patient', narrow), party(a, 'PractitionerRole', narrow)];
  if (w.length > 5) cells.push(a.comment ?? '');
  return clean(columns(cells, w, width));
}

function headerFor(width: number): string {
  const w = widthsFor(width - 2);
  const names = ['ID', 'STATUS', 'START (UTC)', 'PATIENT', 'PRACTITIONER', 'COMMENT'].slice(0, w.length);
  return `  ${columns(names, w, width - 2)}`;
}

function detailLines(a: Appointment): string[] {
  const s = utcParts(a.start);
  const e = utcParts(a.end);
  const out = [
    `Status     ${a.status}`,
    `When       ${s.day} ${s.time} – ${e.day === s.day ? e.time : `${e.day} ${e.time}`} UTC`,
    `Category   ${conceptLabel(a.serviceCategory)}`,
    `Comment    ${a.comment ?? ''}`,
    '',
    'Participants',
  ];
  for (const p of a.participant ?? [])
    out.push(
      `  ${fit(referenceLabel(p.actor, { idOnly: true }) || '(no actor)', 40, true)}  ${p.status ?? ''}${p.required ? `  (${p.required})` : ''}`,
    );
  return out.map((l) => clean(l));
}

export function AppointmentsScreen({ width, height }: ScreenProps) {
  const desk = useDesk();
  const { client, profile } = desk;
  const [items, setItems] = useState<Appointment[] | undefined>();
  const [step, setStep, stepRef] = useRefState<Step>('list');
  const [selected, setSelected, selectedRef] = useRefState<Appointment | undefined>(undefined);
  const [target, setTarget] = useState<Appointment | undefined>();
  const [form, setForm] = useState<FormValues>({ actor: '', comment: '' });
  const [body, setBody] = useState<AppointmentResponseCreate | undefined>();

  const load = useCallback(async () => {
    const r = await desk.run('Loading appointments (A5)', (signal) => searchAppointments(client, [], { signal, limit: LIST_LIMIT }), {
      okText: (v) => `${v.length} appointment${v.length === 1 ? '' : 's'}.`,
    });
    if (r.ok) setItems(r.value);
  }, [desk, client]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: load once when the screen mounts; later loads are asked for with r
  useEffect(() => {
    void load();
  }, []);

  const actorsOf = (a: Appointment) =>
    (a.participant ?? []).map((p) => p.actor?.reference).filter((r): r is string => !!r && /^(Patient|PractitionerRole)\/[^/]+$/.test(r));

  const startCancel = () => {
    const a = selectedRef.current;
    if (!a) return;
    const actors = actorsOf(a);
    setTarget(a);
    setForm((f) => ({
      actor: actors.includes(f.actor ?? '') && target?.id === a.id ? f.actor! : (actors[0] ?? ''),
      comment: target?.id === a.id ? (f.comment ?? '') : '',
    }));
    setStep('cancel');
  };

  const review = (v: FormValues) => {
    if (!target) return;
    if (!(v.comment ?? '').trim()) return desk.error('Comment must not be empty: say why the appointment is cancelled.');
    try {
      setBody(buildCancellation(target.id, v.actor ?? '', v.comment ?? ''));
      setStep('confirm');
    } catch (e) {
      desk.error(e);
    }
  };

  const cancel = async () => {
    if (!body || !target) return;
    setStep('cancel');
    const r = await desk.run(`Cancelling appointment ${clean(target.id)} (A7)`, (signal) => cancelAppointment(client, body, { signal }), {
      sends: true,
    });
    if (!r.ok) return; // error in the status line, the form keeps what was typed
    setForm({ actor: '', comment: '' });
    setBody(undefined);
    setStep('list');
    await load();
    desk.ok(`Cancelled appointment ${clean(target.id)} (declined by ${clean(body.actor.reference)}).`);
  };

  useKeys(
    [
      { keys: ['c'], label: 'cancel appt', help: 'cancel the selected appointment (A7), after a confirmation', run: startCancel },
      { keys: ['r'], label: 'refresh', help: 'reload the appointments (A5)', run: () => void load() },
      {
        keys: ['esc'],
        label: step === 'detail' ? 'back' : undefined,
        help: 'back to the list',
        run: () => {
          if (stepRef.current !== 'detail') return false;
          setStep('list');
        },
      },
    ],
    { active: step === 'list' || step === 'detail' },
  );

  // The list stays mounted (hidden) behind the details and the forms: back on it, its selection and filter
  // are as the operator left them.
  const list = (
    <Box display={step === 'list' ? 'flex' : 'none'} flexDirection="column" height={height} overflowY="hidden">
      <ListView<Appointment>
        items={items ?? []}
        width={width}
        height={height}
        title={`Appointments (A5) — ${clean(profile.name)}`}
        header={headerFor(width)}
        render={(a, w) => appointmentLine(a, w)}
        itemKey={(a) => a.id}
        onSelect={setSelected}
        onOpen={(a) => {
          setSelected(a);
          setStep('detail');
        }}
        openLabel="details"
        empty={items ? 'No appointments.' : 'Not loaded yet (r to load).'}
        active={step === 'list'}
      />
    </Box>
  );

  let content: React.ReactNode = null;
  if (step === 'detail' && selected) {
    content = <Pane title={clean(`Appointment ${selected.id}`)} lines={detailLines(selected)} width={width} height={height} color="cyan" />;
  } else if (step === 'cancel' && target) {
    content = (
      <Form
        title={clean(`Cancel appointment ${target.id} (A7): who declines, and why`)}
        intro={[appointmentLine(target, width)]}
        fields={[
          { name: 'actor', label: 'Declined by', kind: 'choice', options: actorsOf(target) },
          { name: 'comment', label: 'Comment', placeholder: 'reason, sent to the practice system' },
        ]}
        values={form}
        onChange={setForm}
        onSubmit={review}
        onCancel={() => setStep('list')}
        submitLabel="review"
        width={width}
        height={height}
      />
    );
  } else if (step === 'confirm' && body && target) {
    content = (
      <Confirm
        question={clean(`Cancel appointment ${target.id}? POST AppointmentResponse (A7) to ${profile.name}:`)}
        lines={jsonLines(body)}
        yesLabel="cancel it"
        danger
        onYes={() => void cancel()}
        onNo={() => setStep('cancel')}
        width={width}
        height={height}
      />
    );
  } else if (step !== 'list') content = <Text> </Text>;
  return (
    <Box flexDirection="column" height={height} overflowY="hidden">
      {list}
      {content}
    </Box>
  );
}
