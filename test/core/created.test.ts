/** The server's id of what a create made (decisions.md §16): the answer's body, else its Location, else the id sent. */
import { describe, expect, test } from 'vitest';
import { answeredId, createdId, idFromBody, idFromLocation } from '../../src/core/created.js';

describe('idFromLocation', () => {
  test.each([
    ['http://fhir.example/R4/Appointment/6f1c', '6f1c'],
    ['http://fhir.example/R4/Appointment/6f1c/_history/2', '6f1c'],
    ['https://fhir.example/base/Appointment/6f1c/_history/2?x=1#y', '6f1c'],
    ['Appointment/6f1c', '6f1c'],
    ['/R4/Appointment/a%20b/', 'a b'],
  ])('%s names %s', (location, id) => {
    expect(idFromLocation(location, 'Appointment')).toBe(id);
    expect(idFromLocation(location)).toBe(id);
  });

  test('another type, no type, or nothing to read: no id', () => {
    expect(idFromLocation('http://fhir.example/R4/Communication/c1', 'Appointment')).toBeUndefined();
    expect(idFromLocation('http://fhir.example/done')).toBeUndefined();
    expect(idFromLocation('http://fhir.example:8080/')).toBeUndefined();
    expect(idFromLocation(undefined)).toBeUndefined();
    expect(idFromLocation('/R4/Appointment/%E0%A4%A', 'Appointment')).toBeUndefined();
  });
});

describe('createdId', () => {
  const headers = (location?: string): Record<string, string> => (location ? { location } : {});
  test('the body first, a number id as a string; then Location; then the id sent; it says when the server chose another', () => {
    expect(
      createdId({ body: { resourceType: 'Appointment', id: 'srv-1' }, headers: headers('x/Appointment/loc-1') }, 'Appointment', 'sent-1'),
    ).toEqual({
      id: 'srv-1',
      from: 'body',
      location: 'x/Appointment/loc-1',
      sentId: 'sent-1',
      differs: true,
    });
    expect(createdId({ body: { resourceType: 'Appointment', id: 7 }, headers: {} }, 'Appointment', '7')).toMatchObject({
      id: '7',
      differs: false,
    });
    expect(
      createdId({ body: undefined, headers: headers('http://h/R4/Appointment/loc-1/_history/1') }, 'Appointment', 'sent-1'),
    ).toMatchObject({
      id: 'loc-1',
      from: 'location',
      differs: true,
    });
    expect(createdId({ body: undefined, headers: {} }, 'Appointment', 'sent-1')).toEqual({
      id: 'sent-1',
      from: 'sent',
      sentId: 'sent-1',
      differs: false,
    });
    expect(createdId({ body: undefined, headers: {} }, 'Communication')).toEqual({ from: 'none', differs: false });
  });

  test('a body that is not the resource created (an OperationOutcome, another type) names no id', () => {
    const outcome = { resourceType: 'OperationOutcome', id: 'oo-1', issue: [] };
    expect(createdId({ body: outcome, headers: headers('x/Appointment/loc-1') }, 'Appointment', 's')).toMatchObject({
      id: 'loc-1',
      from: 'location',
    });
    expect(idFromBody(outcome)).toBeUndefined();
    expect(idFromBody({ resourceType: 'Communication', id: 'c1' }, 'Appointment')).toBeUndefined();
    expect(idFromBody({ resourceType: 'Communication', id: 'c1' })).toBe('c1');
  });
});

describe('answeredId (the audit record)', () => {
  const res = (status: number, text: string, location?: string) => ({
    status,
    text,
    headers: (location ? { location } : {}) as Record<string, string>,
  });
  test('a POST answered 2xx: its body, else its Location; the body is not parsed for a status-only caller', () => {
    expect(answeredId('POST', res(201, '{"resourceType":"Appointment","id":"a1"}', 'x/Appointment/a2'))).toBe('a1');
    expect(answeredId('POST', res(201, '{"resourceType":"Appointment","id":"a1"}', 'x/Appointment/a2'), false)).toBe('a2');
    expect(answeredId('POST', res(201, '', 'x/Appointment/a2'))).toBe('a2');
    expect(answeredId('POST', res(201, 'not json'))).toBeUndefined();
  });
  test('nothing for other methods or statuses', () => {
    expect(answeredId('PUT', res(200, '{"resourceType":"Encounter","id":"e1"}'))).toBeUndefined();
    expect(answeredId('POST', res(400, '{"resourceType":"Appointment","id":"a1"}'))).toBeUndefined();
    expect(answeredId('POST', res(307, '', 'x/Appointment/a2'))).toBeUndefined();
  });
});
