/** Route resolution (decisions.md §2): defaults, overrides, namespaces, path-parameter encoding, per-API base URLs. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { baseUrlFor, encodeQuery, fillTemplate, headersFor, resolveRoute } from '../../src/core/routes.js';
import { OP_IDS } from '../../src/core/ops.js';
import type { Profile } from '../../src/core/profile/schema.js';
import { validateProfile } from '../../src/core/profile/schema.js';

function profile(extra: Record<string, unknown> = {}): Profile {
  return validateProfile(
    {
      name: 't',
      namespaces: { portal: 'portal.example', practice: 'practice.example' },
      practice: { baseUrl: 'https://practice.test/fhir/' },
      portal: { baseUrl: 'https://portal.test/api' },
      ...extra,
    },
    'test',
  );
}

describe('default routes', () => {
  const p = profile();
  const table: Array<[string, string, string]> = [
    ['A1', 'GET', 'https://practice.test/fhir/ValueSet'],
    ['A2', 'GET', 'https://practice.test/fhir/PractitionerRole'],
    ['A3', 'GET', 'https://practice.test/fhir/Schedule'],
    ['A4', 'GET', 'https://practice.test/fhir/Slot'],
    ['A5', 'GET', 'https://practice.test/fhir/Appointment'],
    ['A6', 'POST', 'https://practice.test/fhir/Appointment'],
    ['A7', 'POST', 'https://practice.test/fhir/AppointmentResponse'],
    ['C1', 'POST', 'https://practice.test/fhir/Communication'],
    ['C2', 'PATCH', 'https://practice.test/fhir/Communication/m-1'],
    ['C3', 'POST', 'https://portal.test/api/Communication'],
    ['C4', 'PUT', 'https://portal.test/api/Encounter/enc-1'],
    ['C5', 'POST', 'https://portal.test/api/Communication'],
    ['M1', 'GET', 'https://practice.test/fhir/MedicationRequest'],
    ['M2', 'GET', 'https://practice.test/fhir/MedicationRequest/mr-1'],
    ['M3', 'POST', 'https://practice.test/fhir/MedicationRequest'],
    ['M4', 'GET', 'https://practice.test/fhir/Organization'],
  ];
  it.each(table)('%s is %s %s (trailing slash of the base URL dropped)', (op, method, url) => {
    const r = resolveRoute(p, op as never, { communicationId: 'm-1', encounterId: 'enc-1', id: 'mr-1' });
    expect(r.method).toBe(method);
    expect(r.url).toBe(url);
  });

  it('covers every operation id', () => {
    expect(table.map((t) => t[0]).sort()).toEqual([...OP_IDS].sort());
  });

  it('A1 follows the appointment API version', () => {
    expect(resolveRoute(profile({ appointmentApi: '1.0.0' }), 'A1').url).toBe('https://practice.test/fhir/AppointmentType');
  });

  it('content types: FHIR JSON for bodies, JSON Patch for C2, none for reads', () => {
    expect(resolveRoute(p, 'A6').contentType).toBe('application/fhir+json');
    expect(resolveRoute(p, 'C2', { communicationId: 'x' }).contentType).toBe('application/json-patch+json');
    expect(resolveRoute(p, 'A4').contentType).toBeUndefined();
  });

  it('a missing path parameter is a usage error', () => {
    expect(() => resolveRoute(p, 'M2')).toThrow(UsageError);
    expect(() => resolveRoute(p, 'M2')).toThrow('{id}');
  });
});

describe('overrides and namespaces', () => {
  it('the conditional C2 override of decisions.md §2 fills {portalNamespace} and encodes the id', () => {
    const p = profile({
      routes: {
        C2: {
          method: 'PATCH',
          path: '/Communication?identifier={portalNamespace}.communication-id|{communicationId}',
          contentType: 'application/fhir+json',
        },
      },
    });
    const r = resolveRoute(p, 'C2', { communicationId: 'a/b c' });
    expect(r.method).toBe('PATCH');
    expect(r.contentType).toBe('application/fhir+json');
    expect(r.url).toBe('https://practice.test/fhir/Communication?identifier=portal.example.communication-id|a%2Fb%20c');
  });

  it('query parameters after an override path that has a query are joined with &', () => {
    const p = profile({ routes: { A5: { path: '/Appointment?_tag={practiceNamespace}' } } });
    const r = resolveRoute(p, 'A5', {}, [['patient', 'p 1']]);
    expect(r.url).toBe('https://practice.test/fhir/Appointment?_tag=practice.example&patient=p%201');
    expect(r.method).toBe('GET');
  });

  it('an override changes only what it names', () => {
    const p = profile({ routes: { C4: { method: 'POST' } } });
    const r = resolveRoute(p, 'C4', { encounterId: 'e1' });
    expect(r.method).toBe('POST');
    expect(r.url).toBe('https://portal.test/api/Encounter/e1');
    expect(r.contentType).toBe('application/fhir+json');
  });

  it('an unknown template placeholder names itself', () => {
    expect(() => fillTemplate('/X/{nope}', {}, profile())).toThrow('{nope}');
  });
});

describe('per-API base URLs and headers', () => {
  const p = profile({
    practice: {
      baseUrl: 'https://practice.test/fhir',
      headers: { 'X-Client': 'pdesk', 'X-Api-Version': 'party' },
      appointment: { baseUrl: 'https://practice.test/appointment/2.0.0/', headers: { 'X-Api-Version': '2.0.0' } },
      medication: { baseUrl: 'https://meds.test/v1' },
    },
    portal: { baseUrl: 'https://portal.test/api', chat: { baseUrl: 'https://portal.test/chat/1.0.0', headers: { 'X-Chat': '1' } } },
  });

  it('each operation goes to its API base URL, else the party base URL', () => {
    expect(resolveRoute(p, 'A4').url).toBe('https://practice.test/appointment/2.0.0/Slot');
    expect(resolveRoute(p, 'M2', { id: '7' }).url).toBe('https://meds.test/v1/MedicationRequest/7');
    expect(resolveRoute(p, 'C1').url).toBe('https://practice.test/fhir/Communication');
    expect(resolveRoute(p, 'C5').url).toBe('https://portal.test/chat/1.0.0/Communication');
    expect(baseUrlFor(p, 'practice')).toBe('https://practice.test/fhir');
  });

  it('per-API headers sit on top of the party headers', () => {
    expect(resolveRoute(p, 'A1').headers).toEqual({ 'X-Client': 'pdesk', 'X-Api-Version': '2.0.0' });
    expect(resolveRoute(p, 'M1').headers).toEqual({ 'X-Client': 'pdesk', 'X-Api-Version': 'party' });
    expect(resolveRoute(p, 'C3').headers).toEqual({ 'X-Chat': '1' });
    expect(headersFor(p, 'portal')).toEqual({});
  });
});

describe('query encoding', () => {
  it('encodes | and , and keeps repeated keys in order', () => {
    expect(
      encodeQuery([
        ['service-category', 'http://x|gp'],
        ['schedule.date', 'ge2026-03-01'],
        ['schedule.date', 'le2026-03-07'],
        ['schedule.actor:PractitionerRole', '1,2'],
      ]),
    ).toBe(
      'service-category=http%3A%2F%2Fx%7Cgp&schedule.date=ge2026-03-01&schedule.date=le2026-03-07&schedule.actor%3APractitionerRole=1%2C2',
    );
    expect(encodeQuery([])).toBe('');
  });

  it('round-trips any well-formed text through URLSearchParams', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ unit: 'binary', minLength: 1 }), fc.string({ unit: 'binary' })), { maxLength: 5 }),
        (pairs) => {
          expect([...new URLSearchParams(encodeQuery(pairs))]).toEqual(pairs);
        },
      ),
    );
  });
});

describe('path parameter encoding', () => {
  const p = profile();

  it('percent-encodes a/b c', () => {
    expect(resolveRoute(p, 'M2', { id: 'a/b c' }).url).toBe('https://practice.test/fhir/MedicationRequest/a%2Fb%20c');
    expect(resolveRoute(p, 'C2', { communicationId: '?x=1#y' }).url).toBe('https://practice.test/fhir/Communication/%3Fx%3D1%23y');
  });

  it('any value stays one path segment that decodes back to itself (fast-check)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1 }), (id) => {
        fc.pre(id !== '.' && id !== '..');
        const url = resolveRoute(p, 'M2', { id }).url;
        const segment = url.slice('https://practice.test/fhir/MedicationRequest/'.length);
        expect(segment).not.toContain('/');
        expect(segment).not.toMatch(/[?#\s]/);
        expect(decodeURIComponent(segment)).toBe(id);
        // What the transport sends: the parsed URL keeps the segment under the resource path.
        const parsed = new URL(url);
        expect(parsed.origin).toBe('https://practice.test');
        expect(parsed.pathname).toBe(`/fhir/MedicationRequest/${segment}`);
        expect(parsed.search).toBe('');
      }),
      { numRuns: 500 },
    );
  });

  it('"." and ".." are refused: URL parsing would climb to another resource', () => {
    for (const id of ['.', '..']) {
      expect(() => resolveRoute(p, 'M2', { id })).toThrow(UsageError);
    }
    expect(resolveRoute(p, 'M2', { id: '...' }).url).toBe('https://practice.test/fhir/MedicationRequest/...');
  });

  it('text with a lone surrogate (possible in server JSON) is a usage error, not a crash', () => {
    expect(() => resolveRoute(p, 'M2', { id: 'a\ud800b' })).toThrow(UsageError);
    expect(() => encodeQuery([['x', '\udc00']])).toThrow(UsageError);
  });
});
