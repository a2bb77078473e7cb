/** The verbose layer (`--verbose`): a line per request as it leaves, its headers (redacted), a line per answer. */
import { statusLine } from '../errors.js';
import { redact, redactHeaders } from '../redact.js';
import type { Layer } from './layer.js';

/** `content-type` → `Content-Type` (curl style). */
function headerName(k: string): string {
  return k.replace(/(^|-)([a-z])/g, (_, d: string, c: string) => d + c.toUpperCase());
}

function kB(n: number): string {
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} kB`;
}

export function verboseLayer(log: ((line: string) => void) | undefined): Layer | undefined {
  if (!log) return undefined;
  return (next) => async (req) => {
    log(`→ ${req.op ? `${req.op} ` : ''}${req.method} ${redact(req.url)}${req.body ? ` (${kB(Buffer.byteLength(req.body))})` : ''}`);
    for (const [k, v] of Object.entries(redactHeaders(req.headers))) log(`  ${headerName(k)}: ${v}`);
    const res = await next(req);
    log(
      `← ${statusLine(res.status)} (${res.ms} ms, ${kB(Buffer.byteLength(res.text))}${res.attempts > 1 ? `, ${res.attempts} attempts` : ''})`,
    );
    return res;
  };
}
