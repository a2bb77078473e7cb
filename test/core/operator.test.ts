/** Operator identity (src/core/operator.ts): PDESK_OPERATOR, else the settings, else the OS user. */
import { describe, expect, it } from 'vitest';
import { osUser } from '../../src/core/audit.js';
import { ConfigError } from '../../src/core/errors.js';
import { operatorOf } from '../../src/core/operator.js';

describe('operatorOf', () => {
  it('PDESK_OPERATOR first, then the settings, then the OS user', () => {
    expect(operatorOf({ PDESK_OPERATOR: 'alice' }, { operator: 'bob' })).toEqual({ name: 'alice', source: 'PDESK_OPERATOR' });
    expect(operatorOf({}, { operator: 'bob' })).toEqual({ name: 'bob', source: 'settings' });
    expect(operatorOf({ PDESK_OPERATOR: '' }, { operator: 'bob' })).toEqual({ name: 'bob', source: 'settings' });
    expect(operatorOf({}, {})).toEqual({ name: osUser(), source: 'os-user' });
    expect(osUser()).toMatch(/\S/);
  });

  it('refuses a PDESK_OPERATOR that cannot name anyone', () => {
    expect(() => operatorOf({ PDESK_OPERATOR: '   ' })).toThrow(ConfigError);
    expect(() => operatorOf({ PDESK_OPERATOR: 'a\u001b]0;x\u0007' })).toThrow('PDESK_OPERATOR must not hold control characters.');
  });
});
