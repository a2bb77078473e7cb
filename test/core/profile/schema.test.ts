/** The profile schema (src/core/profile/schema.ts) through validateProfile: what `profile import` refuses, and how it says so. */
import { describe, expect, it } from 'vitest';
import { ConfigError, ExitCode } from '../../../src/core/errors.js';
import { validateProfile } from '../../../src/core/profile/schema.js';

const base = () => ({
  name: 't',
  namespaces: { portal: 'portal.test', practice: 'practice.test' },
  practice: { baseUrl: 'https://practice.test' } as Record<string, unknown>,
  portal: { baseUrl: 'https://portal.test' } as Record<string, unknown>,
});

function refused(p: unknown): ConfigError {
  try {
    validateProfile(p, 'f.json');
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as ConfigError).exitCode).toBe(ExitCode.config);
    return e as ConfigError;
  }
  throw new Error('the profile was accepted');
}

describe('headers on a party and on a per-API block', () => {
  it('are accepted on both, a tab in a value too', () => {
    const p = base();
    p.practice.headers = { 'X-Tenant': 'a\tb' };
    p.practice.appointment = { headers: { 'X-Api-Version': '2.0.0' } };
    p.portal.chat = { headers: { 'X-Api-Version': '1.0.0' } };
    expect(validateProfile(p, 'f.json').practice.appointment?.headers).toEqual({ 'X-Api-Version': '2.0.0' });
  });

  it('a value with a line break or control character is refused at import, naming the header', () => {
    const p = base();
    p.practice.appointment = { headers: { 'X-Api-Version': '2.0.0\r\nX-Injected: 1' } };
    expect(refused(p).message).toBe(
      'Invalid profile in f.json at $.practice.appointment.headers.X-Api-Version: a header value cannot hold a line break or control character.',
    );
    const q = base();
    q.portal.headers = { 'X-Esc': 'a\u001b[31m' };
    expect(refused(q).message).toContain('at $.portal.headers.X-Esc:');
  });

  it('a name that is not an HTTP token is refused, naming it', () => {
    const p = base();
    p.practice.headers = { 'X Api Version': '2.0.0' };
    expect(refused(p).message).toContain('at $.practice.headers.X Api Version:');
  });
});

describe('route overrides', () => {
  it('may use the operation path parameters and {portalNamespace}, {practiceNamespace}', () => {
    const p = {
      ...base(),
      routes: {
        C2: { method: 'PATCH', path: '/Communication?identifier={portalNamespace}.communication-id|{communicationId}' },
        C4: { path: '/{practiceNamespace}/Encounter/{encounterId}' },
        M2: { path: '/MedicationRequest/{id}/_current' },
      },
    };
    expect(validateProfile(p, 'f.json').routes?.C2?.method).toBe('PATCH');
  });

  it('a placeholder the operation cannot fill is refused at import, naming the route and what it may use', () => {
    const p = { ...base(), routes: { C4: { path: '/Encounter/{communicationId}' } } };
    expect(refused(p).message).toBe(
      'Invalid profile in f.json at $.routes.C4.path: {communicationId} is not a parameter of C4; it may use {encounterId}, {portalNamespace}, {practiceNamespace}.',
    );
    const q = { ...base(), routes: { A4: { path: '/Slot/{id}' } } };
    expect(refused(q).message).toContain('at $.routes.A4.path: {id} is not a parameter of A4');
  });
});
