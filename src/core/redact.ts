/**
 * Secrets never printed. Every secret pdesk resolves (tokens, passwords, client secrets) is registered here,
 * and every line pdesk prints about a request or an error goes through `redact`.
 */
const secrets = new Set<string>();
export const REDACTED = '***';

export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 4) secrets.add(value);
}

export function redact(text: string): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

/** Header values with credentials replaced: `Authorization: Bearer ***`. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (SECRET_HEADERS.has(k.toLowerCase())) {
      const scheme = /^(\w+)\s/.exec(v)?.[1];
      out[k] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
    } else out[k] = redact(v);
  }
  return out;
}
