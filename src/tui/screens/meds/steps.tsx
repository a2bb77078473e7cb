/**
 * The steps of the Meds screen, one small component each: they draw what the hook (useMedReorder.ts)
 * holds and call its actions. `active` is true for the top step only.
 */
import { useMemo } from 'react';
import type { MedicationRequest, MedicationRow, Organization } from '../../../core/schemas/medication.js';
import { Confirm } from '../../components/Confirm.js';
import { Form } from '../../components/Form.js';
import { ListView } from '../../components/ListView.js';
import { Pane } from '../../components/Pane.js';
import { noteTexts } from '../../../core/labels.js';
import { useDesk } from '../../desk.js';
import { clean, columns, jsonLines } from '../../format.js';
import { type MedReorder, type Order, REORDER_FIELDS, type Target, periodLength } from './useMedReorder.js';
import { useKeys } from '../../keys/useKeys.js';
import type { StepViewProps } from '../../steps.js';
import { useInspectKeys } from '../../inspect/context.js';
import {
  MED_COLUMNS,
  detailLines,
  identifierText,
  medLayout,
  PHARMACY_COLUMNS,
  periodText,
  pharmacyLine,
  pharmacyWidths,
  quantityText,
  refText,
} from './format.js';

/** `y` on a row: the M1 entry (request and pharmacy) as listed. */
const rawRow = (row: MedicationRow) => ({
  title: `medication request ${row.medicationRequest.id} with its pharmacy (M1)`,
  value: row,
  name: `medication-${row.medicationRequest.id}`,
});

export interface StepProps extends StepViewProps {
  m: MedReorder;
}

export function ListStep({ m, width, height, active }: StepProps) {
  const desk = useDesk();
  const { profile } = desk;
  const layout = useMemo(
    () =>
      medLayout(
        width - 2,
        (m.rows ?? []).map((r) => clean(r.medicationRequest.id)),
        m.rows ?? [],
      ),
    [width, m.rows],
  );
  useKeys(
    [
      {
        keys: ['o'],
        label: 'reorder',
        help: 'reorder the selected request: M2, form, confirmation, M3',
        run: desk.guard('M3', 'a reorder', m.reorder),
      },
      { keys: ['r'], label: 'reload', help: 'reload the list (M1)', run: m.load },
    ],
    { active },
  );
  return (
    <ListView<MedicationRow>
      items={m.rows ?? []}
      width={width}
      height={height}
      title={`Medication requests (M1) — ${clean(profile.name)}`}
      header={`  ${columns(layout.header, layout.widths, width - 2)}`}
      render={(row, w) => columns(layout.values(row), layout.widths, w)}
      itemKey={(row) => row.medicationRequest.id}
      onSelect={m.select}
      onOpen={m.showDetail}
      openLabel="details"
      sort={{ columns: MED_COLUMNS }}
      refreshedAt={m.loadedAt}
      raw={rawRow}
      xray={(row) => ({ kind: 'medication', request: row.medicationRequest, rows: m.rows })}
      active={active}
      empty={m.loadFailed ? 'Not loaded (see the status line): r to try again.' : m.rows ? 'No medication requests.' : 'Loading…'}
    />
  );
}

export function DetailStep({ m, target, width, height, active }: StepProps & { target: Target }) {
  const desk = useDesk();
  useKeys(
    [
      { keys: ['o'], label: 'reorder', help: 'reorder this request', run: desk.guard('M3', 'a reorder', m.reorder) },
      { keys: ['r'], label: 'reload', help: 'read it again (M2)', run: m.reread },
    ],
    { active },
  );
  useInspectKeys(
    {
      raw: () => ({ title: `medication request ${target.r.id} (M2)`, value: target.r, name: `medication-${target.r.id}` }),
      xray: () => ({ kind: 'medication', request: target.r, rows: m.rows }),
    },
    { active },
  );
  return (
    <Pane
      title={`Medication request ${clean(target.r.id)} (M2)`}
      color="cyan"
      lines={['', ...detailLines(target.r, target.org)]}
      width={width}
      height={height}
    />
  );
}

export function ReorderStep({ m, target, width, height, active }: StepProps & { target: Target }) {
  const { r, org } = target;
  const example = org?.identifier?.[0];
  const days = periodLength(r);
  const notes: Record<string, Partial<(typeof REORDER_FIELDS)[number]>> = {
    pharmacy: { note: clean(`an id, or system|value to search (M4)${example?.system ? `: ${example.system}|${example.value}` : ''}`) },
    quantity: { note: clean(`unit kept: ${r.dispenseRequest?.initialFill?.quantity?.unit ?? '(none)'}`) },
    end: { placeholder: `start + ${days} days`, note: `blank: start + ${days} days (the length of ${clean(r.id)}'s period)` },
  };
  return (
    <Form
      title={`Reorder ${clean(r.id)} (M3): ${refText(r.medicationReference)}`}
      intro={[
        clean(
          `for ${refText(r.subject)} · now ${quantityText(r)} at ${org?.name ?? r.performer?.display ?? r.performer?.reference ?? '(no pharmacy)'}${org ? ` (${org.id})` : ''}`,
        ),
      ]}
      fields={REORDER_FIELDS.map((f) => ({ ...f, ...notes[f.name] }))}
      {...m.form.bind}
      onSubmit={m.submit}
      onCancel={() => m.stack.pop()}
      submitLabel="review"
      width={width}
      height={height}
      active={active}
    />
  );
}

export function PickStep({
  m,
  target,
  found,
  at,
  width,
  height,
  active,
}: StepProps & { target: Target; found: Organization[]; at?: Date }) {
  const widths = useMemo(
    () =>
      pharmacyWidths(
        width - 2,
        found.map((o) => clean(o.id)),
      ),
    [width, found],
  );
  return (
    <ListView<Organization>
      items={found}
      width={width}
      height={height}
      title={`Pharmacies found (M4): pick one for the reorder of ${clean(target.r.id)}`}
      header={`  ${columns(['ID', 'NAME', 'ADDRESS', 'IDENTIFIER'], widths, width - 2)}`}
      render={(o, w) => pharmacyLine(o, w, widths)}
      itemKey={(o) => o.id}
      onOpen={m.pick}
      openLabel="pick"
      sort={{ columns: PHARMACY_COLUMNS }}
      refreshedAt={at}
      raw={(o) => ({ title: `Organization ${clean(o.id)} (M4)`, value: o, name: `organization-${o.id}` })}
      active={active}
    />
  );
}

export function ConfirmStep({ m, target, order, width, height, active }: StepProps & { target: Target; order: Order }) {
  const { body, org } = order;
  const asRead = body as MedicationRequest;
  return (
    <Confirm
      question={clean(`Order? POST MedicationRequest (M3), a reorder of ${target.r.id}:`)}
      lines={[
        clean(`${body.medicationReference.display ?? body.medicationReference.reference} for ${refText(body.subject)}`),
        clean(
          `at ${org?.name ? `${org.name} (${org.id})` : body.performer.reference}${org && identifierText(org) ? ` · ${identifierText(org)}` : ''}`,
        ),
        clean(`quantity ${quantityText(asRead)} · period ${periodText(asRead)}`),
        ...(body.note ? [clean(`note ${noteTexts(body).join(' | ')}`)] : []),
        '',
        ...jsonLines(body),
      ]}
      yesLabel="order"
      onYes={m.place}
      onNo={m.unconfirm}
      width={width}
      height={height}
      active={active}
    />
  );
}
