/**
 * A profile as it may be shown (`profile show`, `profile import`, the TUI): stored secrets (`token`,
 * `password`) replaced by `***`, credential headers redacted. Names of environment variables and files stay.
 */
import { REDACTED, redactHeaders } from '../core/redact.js';

const SECRET_KEYS = new Set(['token', 'password', 'clientSecret']);

export function redactProfile<T>(profile: T): T {
  const walk = (value: unknown, key?: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v));
    if (value && typeof value === 'object') {
      if (key === 'headers') return redactHeaders(value as Record<string, string>);
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEYS.has(k) && typeof v === 'string' ? REDACTED : walk(v, k);
      return out;
    }
    return value;
  };
  return walk(profile) as T;
}
