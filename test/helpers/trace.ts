/** A trace's exchange as tests build one: an A6 booking answered 201, with any field replaced. */
import type { Exchange } from '../../src/core/client.js';

export const exchange = (over: Partial<Exchange> = {}): Exchange => ({
  op: 'A6',
  party: 'practice',
  method: 'POST',
  url: 'http://127.0.0.1:1/practice/Appointment',
  requestHeaders: { accept: 'application/fhir+json', authorization: 'Bearer ***', 'content-type': 'application/fhir+json' },
  requestBody: '{"resourceType":"Appointment"}',
  startedAt: '2026-03-01T09:00:00.000Z',
  ms: 5,
  status: 201,
  ...over,
});
