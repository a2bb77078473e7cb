/**
 * `pdesk appointments book` and `cancel` called as their modules' `run(ctx, options)`, without a command line
 * (src/cli/verb.ts): the same booking over real HTTP as from the command line, and the same refusals. The command
 * lines themselves: test/cli/commands/appointments.test.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as book } from '../../../../src/cli/commands/appointments/book.js';
import { run as cancel } from '../../../../src/cli/commands/appointments/cancel.js';
import { UsageError } from '../../../../src/core/errors.js';
import { type Env, testContext, withSandbox } from '../../../helpers/run.js';

const GP = 'urn:pdesk:service-category|gp';
const day = (n = 0) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

let env: Env;
beforeAll(async () => {
  env = await withSandbox();
});
afterAll(async () => {
  await env?.close();
});

describe('appointments book and cancel: run(ctx, options)', () => {
  it('books the slot the options give and cancels it by the id as an option; the sandbox stores both', async () => {
    const listed = await env.run([
      'slots',
      'list',
      '--service-category',
      GP,
      '--from',
      day(3),
      '--to',
      day(3),
      '--schedule',
      '11',
      '--limit',
      '1',
    ]);
    expect(listed.code, listed.stderr).toBe(0);
    const [slot] = listed.json<Array<{ id: string; start: string }>>();
    const slotJson = join(env.configDir, 'slot.json');
    writeFileSync(slotJson, JSON.stringify(slot));

    const t = testContext({ configDir: env.configDir, globals: { json: true } });
    try {
      await book(t.ctx, { patient: 'pat-2', comment: 'Booked without argv', slotJson });
      const appt = t.json() as { id: string; status: string; start: string };
      expect(appt).toMatchObject({ status: 'booked', start: slot!.start });
      expect(env.sandbox.state.slots.get(slot!.id)!.status).toBe('busy');
    } finally {
      await t.close();
    }
    const id = [...env.sandbox.state.appointments.values()].find((a) => a.comment === 'Booked without argv')!.id!;
    const c = testContext({ configDir: env.configDir, globals: { json: true } });
    try {
      await cancel(c.ctx, { appointmentId: `Appointment/${id}`, actor: 'Patient/pat-2', comment: 'Not needed' });
      expect(c.json()).toMatchObject({ resourceType: 'AppointmentResponse', participantStatus: 'declined' });
      expect(env.sandbox.state.appointments.get(id)!.status).toBe('cancelled');
    } finally {
      await c.close();
    }
  });

  it('refuses as the command line does, before anything is sent: --body with another option, a start that has passed', async () => {
    const sent = env.sandbox.received.length;
    const body = join(env.configDir, 'appointment.json');
    writeFileSync(body, '{}');
    const given = testContext({ configDir: env.configDir, given: ['--patient', '--body'] });
    await expect(book(given.ctx, { patient: 'pat-1', body })).rejects.toThrow(
      '--body sends a complete Appointment as is and cannot be combined with --patient.',
    );
    const past = testContext({ configDir: env.configDir });
    const error = await book(past.ctx, {
      patient: 'pat-1',
      comment: 'Too late',
      start: '2020-01-01T09:00:00Z',
      end: '2020-01-01T09:30:00Z',
      practitioner: '1001',
      serviceCategory: GP,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe('The appointment starts at 2020-01-01 09:00 UTC, which has passed: nothing was sent.');
    expect((error as UsageError).hints).toEqual([{ kind: 'allow-past' }]);
    await past.close();
    expect(env.sandbox.received).toHaveLength(sent);
  });
});
