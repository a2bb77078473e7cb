/**
 * Secrets never printed. Every secret pdesk resolves (tokens, passwords, client secrets) is registered here,
 * and every line pdesk prints about a request or an error goes through `redact`.
 */
const secrets = new Set<string>();
export const REDACTED = '***';

export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 4) secrets.add(value);
}

/**
 * Remember which secrets are registered now; the returned function forgets every secret registered after. A
 * one-shot process never needs this; a program run in-process (tests) forgets its secrets when the run ends.
 */
export function secretScope(): () => void {
  const before = new Set(secrets);
  return () => {
    for (const s of secrets) if (!before.has(s)) secrets.delete(s);
  };
}

export function redact(text: string): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}

/**
 * Headers that carry credentials: the standard ones, and a profile's own (`X-Auth-Token`, `Api-Key`,
 * `Ocp-Apim-Subscription-Key`, `X-Client-Secret`…), recognised by the words in their names.
 */
const SECRET_HEADER = /auth|token|secret|passw|cookie|session|credential|signature|api-?key|(^|[-_])key$/i;

export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER.test(name);
}

/** Header values with credentials replaced: `Authorization: Bearer ***`. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (isSecretHeader(k)) {
      const scheme = /^(\w+)\s/.exec(v)?.[1];
      out[k] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
    } else out[k] = redact(v);
  }
  return out;
}
