import { describe, expect, it } from 'vitest';
import { redactProfile } from '../../src/profiles/redact.js';

describe('redactProfile', () => {
  it('hides stored tokens and passwords and credential headers, keeps names of environment variables', () => {
    const shown = redactProfile({
      name: 'p',
      practice: {
        baseUrl: 'https://x',
        auth: { type: 'bearer', token: 'stored-token-value' },
        headers: { 'X-Api-Key': 'key-value', 'X-Api-Version': '2.0.0' },
      },
      portal: { baseUrl: 'https://y', auth: { type: 'basic', username: 'u', password: 'pw-value' } },
      other: { auth: { type: 'bearer', tokenEnv: 'PORTAL_TOKEN' } },
    });
    const text = JSON.stringify(shown);
    expect(text).not.toContain('stored-token-value');
    expect(text).not.toContain('pw-value');
    expect(text).not.toContain('key-value');
    expect(shown.practice.auth).toEqual({ type: 'bearer', token: '***' });
    expect(shown.portal.auth).toEqual({ type: 'basic', username: 'u', password: '***' });
    expect(shown.practice.headers).toEqual({ 'X-Api-Key': '***', 'X-Api-Version': '2.0.0' });
    expect(shown.other.auth.tokenEnv).toBe('PORTAL_TOKEN');
  });
});
