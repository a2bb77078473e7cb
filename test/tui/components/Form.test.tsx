/** Form: controlled fields, Enter next/submit, choices, the field of each edit, and focus requests. */
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FocusRequest, Form, type FormField, type FormValues } from '../../../src/tui/components/Form.js';
import { KEY } from '../harness.js';
import { renderWithDesk } from '../hook-harness.js';

const FIELDS: FormField[] = [
  { name: 'patient', label: 'Patient' },
  { name: 'comment', label: 'Comment' },
  { name: 'status', label: 'Status', kind: 'choice', options: ['booked', 'proposed'] },
];

interface Seen {
  edits: string[];
  submitted?: FormValues;
  cancelled: number;
}

function Host({ seen, request }: { seen: Seen; request?: FocusRequest }) {
  const [values, setValues] = useState<FormValues>({ patient: '', comment: 'Check-up', status: 'booked' });
  return (
    <Form
      title="Book"
      fields={FIELDS}
      values={values}
      onChange={(v, field) => {
        seen.edits.push(field);
        setValues(v);
      }}
      onSubmit={(v) => {
        seen.submitted = v;
      }}
      onCancel={() => seen.cancelled++}
      focusRequest={request}
      width={60}
      height={8}
    />
  );
}

let ui: ReturnType<typeof renderWithDesk> | undefined;
afterEach(() => ui?.unmount());

describe('Form', () => {
  it('types into the focused field, names the field of each edit, moves on with Enter and submits on the last', async () => {
    const seen: Seen = { edits: [], cancelled: 0 };
    ui = renderWithDesk(<Host seen={seen} />);
    await vi.waitFor(() => expect(ui!.frame()).toMatch(/› Patient/));
    await ui.press('pat-1', KEY.enter, ' and more', KEY.enter, KEY.right);
    await vi.waitFor(() => expect(ui!.frame()).toContain('[proposed]'));
    expect(seen.edits).toEqual(['patient', 'comment', 'status']);
    await ui.press(KEY.enter);
    await vi.waitFor(() => expect(seen.submitted).toEqual({ patient: 'pat-1', comment: 'Check-up and more', status: 'proposed' }));
    await ui.press(KEY.esc);
    await vi.waitFor(() => expect(seen.cancelled).toBe(1));
  });

  it('starts on the field a request names, and moves there again on each new request', async () => {
    const seen: Seen = { edits: [], cancelled: 0 };
    ui = renderWithDesk(<Host seen={seen} request={{ field: 'comment', seq: 1 }} />);
    await vi.waitFor(() => expect(ui!.frame()).toMatch(/› Comment/));
    await ui.press(KEY.tab);
    await vi.waitFor(() => expect(ui!.frame()).toMatch(/› Status/));
    // The same request again does not move the cursor; a new one does.
    ui.rerender(<Host seen={seen} request={{ field: 'comment', seq: 1 }} />);
    await ui.press();
    expect(ui.frame()).toMatch(/› Status/);
    ui.rerender(<Host seen={seen} request={{ field: 'patient', seq: 2 }} />);
    await vi.waitFor(() => expect(ui!.frame()).toMatch(/› Patient/));
    await ui.press('x');
    await vi.waitFor(() => expect(ui!.frame()).toMatch(/› Patient\s+x/));
  });
});
