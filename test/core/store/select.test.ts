/** Store selection (src/core/store/select.ts): which engine, where the URL comes from, and its password never shown. */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/core/errors.js';
import { redact } from '../../../src/core/redact.js';
import { redactStoreUrl, selectStore } from '../../../src/core/store/select.js';

describe('selectStore', () => {
  it('is the file store when nothing names a URL', () => {
    expect(selectStore({}, {}, '/cfg')).toEqual({ engine: 'file' });
    expect(selectStore({ PDESK_STORE_URL: '' }, {}, '/cfg')).toEqual({ engine: 'file' });
  });

  it('takes PDESK_STORE_URL first, then the variable storeUrlEnv names', () => {
    const a = 'postgres://a:pw-A-1234@db.example:5432/desk';
    const b = 'postgresql://b:pw-B-1234@db.example/desk';
    expect(selectStore({ PDESK_STORE_URL: a, TEAM: b }, { storeUrlEnv: 'TEAM' }, '/cfg')).toEqual({
      engine: 'postgres',
      url: a,
      source: 'PDESK_STORE_URL',
    });
    expect(selectStore({ TEAM: b }, { storeUrlEnv: 'TEAM' }, '/cfg')).toEqual({
      engine: 'postgres',
      url: b,
      source: 'TEAM (storeUrlEnv in /cfg/config.json)',
    });
  });

  it('never falls back to the file store when the settings name a variable that is not set', () => {
    expect(() => selectStore({}, { storeUrlEnv: 'TEAM' }, '/cfg')).toThrow(ConfigError);
    expect(() => selectStore({}, { storeUrlEnv: 'TEAM' }, '/cfg')).toThrow(
      /in TEAM \(storeUrlEnv in \/cfg\/config\.json\), which is not set/,
    );
  });

  it('refuses a URL that is not PostgreSQL, without printing it', () => {
    let message = '';
    try {
      selectStore({ PDESK_STORE_URL: 'mysql://u:hunter2-xyz@h/db' }, {}, '/cfg');
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/from PDESK_STORE_URL is not a PostgreSQL URL/);
    expect(message).not.toContain('hunter2-xyz');
  });

  it('registers the password, as written and decoded, so that no output shows it', () => {
    selectStore({ PDESK_STORE_URL: 'postgres://u:p%40ss-W0rd-sel@h/db' }, {}, '/cfg');
    expect(redact('login p%40ss-W0rd-sel or p@ss-W0rd-sel')).toBe('login *** or ***');
  });
});

describe('redactStoreUrl', () => {
  it('hides the password of the authority and of a password parameter, and nothing else', () => {
    expect(redactStoreUrl('postgres://desk:s3cret@db:5432/team?sslmode=require')).toBe('postgres://desk:***@db:5432/team?sslmode=require');
    expect(redactStoreUrl('postgres://desk@db/team?password=s3cret&sslmode=require')).toBe(
      'postgres://desk@db/team?password=***&sslmode=require',
    );
    expect(redactStoreUrl('postgres://db/team')).toBe('postgres://db/team');
    expect(redactStoreUrl('postgres://desk:p:w@db,db2:5433/team')).toBe('postgres://desk:***@db,db2:5433/team');
  });
});
