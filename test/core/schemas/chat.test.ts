/**
 * Chat and notification bodies (src/core/schemas/chat.ts, notification.ts) on payloads shaped like interface.md's
 * tables: what pdesk sends and what a receiver accepts, a bad field named by its JSON path.
 */
import { describe, expect, it } from 'vitest';
import { ChatCommunication, EncounterClose, Notification, ReadMarker, checkBody } from '../../../src/core/schemas/index.js';
import { EmailAddress, isEmailAddress } from '../../../src/core/schemas/notification.js';

describe('chat and notification bodies', () => {
  const msg = {
    resourceType: 'Communication',
    id: 'm1',
    identifier: [{ system: 'portal.example.communication-id', value: 42 }],
    status: 'completed',
    payload: [{ contentString: 'Hello', contentAttachment: { contentType: 'application/pdf', title: 'letter.pdf' } }],
    encounter: { identifier: [{ system: 'practice.example.encounter-id', value: 77 }] },
    recipient: [{ reference: 'PractitionerRole/1001' }],
    sender: [{ reference: 'Patient/p1' }],
    subject: [{ reference: 'Patient/p1' }],
    category: [{ coding: [{ system: 'portal.example.communication-type', code: 'chat' }] }],
  };

  it('numeric identifier values become strings (an encounter id is a thread key)', () => {
    const r = checkBody(ChatCommunication, msg);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.data.identifier[0]!.value).toBe('42');
      expect(r.data.encounter.identifier[0]!.value).toBe('77');
    }
  });

  it.each(['recipient', 'sender', 'subject', 'category'])('the required array %s may not be missing or empty', (field) => {
    expect(checkBody(ChatCommunication, { ...msg, [field]: undefined })).toMatchObject({ ok: false, path: `$.${field}` });
    expect(checkBody(ChatCommunication, { ...msg, [field]: [] })).toMatchObject({ ok: false, path: `$.${field}` });
  });

  it('status is only completed', () => {
    expect(checkBody(ChatCommunication, { ...msg, status: 'in-progress' })).toMatchObject({ ok: false, path: '$.status' });
  });

  it('read marker: an RFC 6902 array or one bare operation, valueDateTime without offset', () => {
    const op = {
      op: 'add',
      path: '/recipient/0/extension',
      value: { url: 'portal.example.ResourceSeenAt', valueDateTime: '2026-11-22T10:15:00' },
    };
    expect(checkBody(ReadMarker, [op])).toMatchObject({ ok: true, data: [op] });
    expect(checkBody(ReadMarker, op)).toMatchObject({ ok: true, data: [op] });
    expect(checkBody(ReadMarker, [{ ...op, value: { ...op.value, valueDateTime: '2026-11-22T10:15:00Z' } }])).toMatchObject({ ok: false });
    expect(checkBody(ReadMarker, [{ ...op, op: 'replace' }])).toMatchObject({ ok: false, path: '$[0].op' });
  });

  it('encounter close: status finished and the identifier array', () => {
    const enc = {
      resourceType: 'Encounter',
      id: 'e1',
      status: 'finished',
      identifier: [{ system: 'practice.example.encounter-id', value: 'e1' }],
    };
    expect(checkBody(EncounterClose, enc).ok).toBe(true);
    expect(checkBody(EncounterClose, { ...enc, status: 'in-progress' })).toMatchObject({ ok: false, path: '$.status' });
  });

  it('notification: contained patient with an email, recipient #id', () => {
    const n = {
      resourceType: 'Communication',
      contained: [{ resourceType: 'Patient', id: 'p1', telecom: [{ system: 'email', value: 'pat@example.org' }] }],
      recipient: [{ reference: '#p1' }],
      topic: { text: 'Flu shots' },
      status: 'completed',
      category: [{ coding: [{ system: 'portal.example.communication-category', code: 'notification' }] }],
      payload: [{ contentString: 'Book now' }],
    };
    expect(checkBody(Notification, n).ok).toBe(true);
    expect(checkBody(Notification, { ...n, recipient: [{ reference: 'Patient/p1' }] })).toMatchObject({
      ok: false,
      path: '$.recipient[0].reference',
    });
    expect(
      checkBody(Notification, { ...n, contained: [{ ...n.contained[0], telecom: [{ system: 'email', value: 'not-an-email' }] }] }),
    ).toMatchObject({ ok: false, path: '$.contained[0].telecom[0].value' });
  });

  it('notification: a numeric contained patient id is accepted and normalised to a string (decisions.md §3)', () => {
    const n = {
      resourceType: 'Communication',
      contained: [{ resourceType: 'Patient', id: 7, telecom: [{ system: 'email', value: 'pat@example.org' }] }],
      recipient: [{ reference: '#7' }],
      topic: { text: 'Flu shots' },
      status: 'completed',
      category: [{ coding: [{ system: 'portal.example.communication-category', code: 'notification' }] }],
      payload: [{ contentString: 'Book now' }],
    };
    const r = checkBody(Notification, n);
    expect(r.ok && r.data.contained[0]!.id).toBe('7');
  });
  it('reads FHIR R4 shapes and keeps the interface shape: single sender and subject, encounter a Reference, the marker a list', () => {
    const r4 = {
      ...msg,
      sender: { reference: 'Patient/p1' },
      subject: { reference: 'Patient/p1' },
      encounter: { reference: 'Encounter/e1', identifier: { system: 'practice.example.encounter-id', value: 'e1' } },
    };
    const r = checkBody(ChatCommunication, r4);
    if (!r.ok) throw new Error(r.message);
    expect(r.data.sender).toEqual([{ reference: 'Patient/p1' }]);
    expect(r.data.subject).toEqual([{ reference: 'Patient/p1' }]);
    expect(r.data.encounter).toEqual({ reference: 'Encounter/e1', identifier: [{ system: 'practice.example.encounter-id', value: 'e1' }] });
    // An encounter without its identifier names no thread.
    expect(checkBody(ChatCommunication, { ...r4, encounter: { reference: 'Encounter/e1' } })).toMatchObject({
      ok: false,
      path: '$.encounter.identifier',
    });
    const marker = checkBody(ReadMarker, [
      {
        op: 'add',
        path: '/recipient/0/extension',
        value: [{ url: 'portal.example.ResourceSeenAt', valueDateTime: '2030-01-02T10:15:00+01:00' }],
      },
    ]);
    expect(marker).toEqual({
      ok: true,
      data: [
        {
          op: 'add',
          path: '/recipient/0/extension',
          value: { url: 'portal.example.ResourceSeenAt', valueDateTime: '2030-01-02T10:15:00+01:00' },
        },
      ],
    });
    // The interface's one object keeps its rule: no offset.
    expect(
      checkBody(ReadMarker, [
        { op: 'add', path: '/recipient/0/extension', value: { url: 'u', valueDateTime: '2030-01-02T10:15:00+01:00' } },
      ]),
    ).toMatchObject({ ok: false });
  });
});

describe('email addresses', () => {
  it("isEmailAddress (a bulk send's check of every row) agrees with the EmailAddress schema", () => {
    const samples = [
      'emma.jansen@example.org',
      "o'brien+tag@mail.example.co.uk",
      'a@b.nl',
      'no-at-sign.example.org',
      'two@@example.org',
      'trailing.dot.@example.org',
      'x@localhost',
      'x@example.c',
      ' x@example.org',
      '',
      'ünï@example.org',
    ];
    const accepted = samples.filter((s) => EmailAddress.safeParse(s).success);
    expect(accepted).toEqual(['emma.jansen@example.org', "o'brien+tag@mail.example.co.uk", 'a@b.nl']);
    expect(samples.filter(isEmailAddress)).toEqual(accepted);
  });
});
