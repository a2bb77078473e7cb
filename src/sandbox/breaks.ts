/**
 * `pdesk sandbox --break <op>` and `--fail <op>:<status>`: what a broken practice system or portal looks like.
 * A broken operation's successful answers miss one field pdesk requires when it reads them (decisions.md §3),
 * always the same one, so a user sees exit 6 naming its JSON path and `pdesk check` fails exactly the checks of
 * that operation. Answers of writes the interface states no body for (A7, C1–C5) lose `resourceType`, the one
 * field every resource carries. A failed operation is answered with the status and an OperationOutcome, before
 * anything changes.
 */
import { OP_IDS, type OpId } from '../core/ops.js';

/** The field a broken answer misses, as the JSON path pdesk names (per appointment API version for A1). */
export function brokenPath(op: OpId, appointmentApi: '1.0.0' | '2.0.0'): string {
  switch (op) {
    case 'A1':
      return appointmentApi === '2.0.0' ? '$.compose.include[0].concept[0].code' : '$.compose.include[0].actor.concept.code';
    case 'A2':
      return '$.entry[0].resource.id';
    case 'A3':
      return '$.entry[0].id'; // the Schedule searchset has bare entries
    case 'A4':
      return '$.entry[0].resource.start';
    case 'A5':
      return '$.entry[0].resource.status';
    case 'A6':
      return '$.id';
    case 'M1':
      return '$.entry[0]["medication-request"].status';
    case 'M2':
      return '$.subject';
    case 'M3':
      return '$.intent';
    case 'M4':
      return '$.entry[0].resource.id';
    default:
      return '$.resourceType'; // A7, C1–C5
  }
}

/** `$.entry[0]["medication-request"].status` → ['entry', 0, 'medication-request', 'status']. */
function segments(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  for (const m of path.slice(1).matchAll(/\.([A-Za-z_][\w-]*)|\[(\d+)\]|\["([^"]+)"\]/g))
    out.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : m[3]!));
  return out;
}

/**
 * A copy of `body` without the field at `brokenPath(op)` (the sandbox's stored resources stay whole). A body
 * that does not reach that far (an empty search) is returned unchanged: there is nothing to break.
 */
export function breakAnswer(op: OpId, body: unknown, appointmentApi: '1.0.0' | '2.0.0'): unknown {
  if (body === undefined || body === null || typeof body !== 'object') return body;
  const copy = structuredClone(body) as Record<string | number, unknown>;
  const path = segments(brokenPath(op, appointmentApi));
  let cur: unknown = copy;
  for (const key of path.slice(0, -1)) {
    cur = (cur as Record<string | number, unknown> | undefined)?.[key];
    if (!cur || typeof cur !== 'object') return body;
  }
  delete (cur as Record<string | number, unknown>)[path[path.length - 1]!];
  return copy;
}

/** `A4` (any case) as an operation id, or undefined. */
export function asOpId(value: string): OpId | undefined {
  const v = value.trim().toUpperCase();
  return (OP_IDS as readonly string[]).includes(v) ? (v as OpId) : undefined;
}
