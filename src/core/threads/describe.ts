/** One terminal-safe line per thread store record (what `pdesk listen` prints, and the TUI's activity line). */
import { referenceLabel } from '../labels.js';
import { sanitize } from '../sanitize.js';
import type { StoreRecord } from './records.js';
import { textOf } from './view.js';

const ref = (r: { reference?: string; display?: string } | undefined) => referenceLabel(r) || '?';

/** e.g. `2026-03-01T10:15:00.000Z C3 received enc-100 msg-1 from PractitionerRole/1001 to Patient/pat-1: Hello`. */
export function describeRecord(r: StoreRecord): string {
  const head = `${r.at} ${r.op} ${r.via}`;
  let line: string;
  switch (r.kind) {
    case 'message':
      line = `${head} ${r.thread} ${r.id} from ${ref(r.resource.sender?.[0])} to ${ref(r.resource.recipient?.[0])}: ${textOf(r.resource)}`;
      break;
    case 'read':
      line = `${head} ${r.thread ?? '-'} ${r.id} read at ${r.readAt}`;
      break;
    case 'close':
      line = `${head} ${r.thread} closed`;
      break;
    case 'notification': {
      const n = r.resource;
      const email = n.contained?.[0]?.telecom?.[0]?.value ?? '?';
      line = `${head} notification to ${email}: ${n.topic?.text ?? ''}: ${(n.payload ?? []).map((p) => p.contentString).join(' ')}`;
      break;
    }
  }
  return sanitize(line);
}
