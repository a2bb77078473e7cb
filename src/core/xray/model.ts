/**
 * What an X-ray is: the elements related to one case (an appointment, a chat thread, a medication request),
 * grouped in sections, each element either found (with the resource as pdesk got it, openable) or an honest
 * note of why it is not there ("not found: the server lists free slots only"). Built by the functions of this
 * folder from read-only requests (A1–A5, M1, M2, M4) and the local thread store; faces only render it.
 */
import type { OpId } from '../ops.js';

export type XrayState = 'found' | 'not-found' | 'error' | 'info';

/** Where an element leads in a face (the TUI opens that screen there). */
export type XrayJump =
  | { screen: 'chat'; thread: string }
  | { screen: 'appointments'; appointment: string }
  | { screen: 'meds'; request: string };

export interface XrayNode {
  /** Unique within the X-ray. */
  key: string;
  /** The section heading it belongs to: `Slot (A4)`. */
  section: string;
  /** 0 an element, 1 an element under the one before it. */
  depth: number;
  /** One line: `slot-11-20261123-0900 · 09:00–09:30 UTC · busy`. Raw server text: faces sanitise it. */
  label: string;
  state: XrayState;
  /** Where it came from: an operation, or the local thread store. */
  source?: OpId | 'store' | 'profile';
  /** The resource as pdesk read it (opened as raw JSON), if there is one. */
  resource?: unknown;
  jump?: XrayJump;
}

export interface Xray {
  /** `Appointment appt-1`. */
  title: string;
  nodes: XrayNode[];
}

/** An X-ray of these nodes, each keyed by its place. */
export function xray(title: string, nodes: readonly XrayNode[]): Xray {
  return { title, nodes: nodes.map((n, i) => ({ ...n, key: `${i}:${n.section}` })) };
}

/** Helpers to build nodes of one section. */
export function section(name: string) {
  let n = 0;
  const make = (state: XrayState, label: string, extra: Partial<XrayNode> = {}): XrayNode => ({
    key: `${name}#${n++}`,
    section: name,
    depth: 0,
    label,
    state,
    ...extra,
  });
  return {
    found: (label: string, extra: Partial<XrayNode> = {}) => make('found', label, extra),
    none: (label: string, extra: Partial<XrayNode> = {}) => make('not-found', label, extra),
    info: (label: string, extra: Partial<XrayNode> = {}) => make('info', label, extra),
    error: (e: unknown, extra: Partial<XrayNode> = {}) => make('error', errorLine(e), extra),
  };
}

/** An error as one line: the message and the first detail that is not the request line. */
export function errorLine(e: unknown): string {
  const err = e as { message?: string; details?: string[] };
  const detail = err?.details?.find((d) => !/^(GET|POST|PUT|PATCH) /.test(d) && !/^request: /.test(d) && !/^Check that /.test(d));
  return `${err?.message ?? String(e)}${detail ? ` ${detail}` : ''}`;
}

/** Run one section's gathering; a thrown error becomes that section's one error node (the others go on). */
export async function gather(name: string, fn: () => Promise<XrayNode[]> | XrayNode[], signal?: AbortSignal): Promise<XrayNode[]> {
  try {
    return await fn();
  } catch (e) {
    if (signal?.aborted) throw e;
    return [section(name).error(e)];
  }
}

/** The id of a typed reference (`Patient/pat-1` → `pat-1`), or undefined for another type. */
export function refId(reference: string | undefined, type: string): string | undefined {
  return reference?.startsWith(`${type}/`) ? reference.slice(type.length + 1) : undefined;
}
