/**
 * What a create command prints about the id the server gave (decisions.md §16): its JSON when the server answered
 * without a body (`{ok, status, id, location}` instead of `{ok, status}`), and the lines a table adds (the
 * `Location` of a body-less answer; the server's id when it is not the one sent). Server text is sanitised here.
 */
import type { CreatedId } from '../core/created.js';
import { sanitize } from '../core/sanitize.js';
import type { Context } from './context.js';

/** The answer's body, or what is known of a create answered without one. */
export function createdJson(status: number, body: unknown, created: CreatedId): unknown {
  if (body !== undefined) return body;
  return {
    ok: true,
    status,
    ...(created.id !== undefined ? { id: created.id } : {}),
    ...(created.location ? { location: created.location } : {}),
  };
}

/** Lines under a create's first line: where a body-less answer put it, and a server id other than the one sent. */
export function createdLines(type: string, body: unknown, created: CreatedId): string[] {
  const out: string[] = [];
  if (body === undefined && created.location) out.push(`  Location: ${created.location}`);
  if (created.differs) out.push(`  The server stored it as ${type}/${created.id}, not under the id sent (${created.sentId}).`);
  else if (created.from === 'sent' && body === undefined)
    out.push(`  The server named no id (no body, no Location): ${created.id} is the id sent, which it may not have kept.`);
  return out.map((l) => sanitize(l));
}

/** The stderr note of a JSON run when the server's id is not the one sent (a table says it in its lines). */
export function createdNote(type: string, created: CreatedId): string | undefined {
  return created.differs
    ? sanitize(`pdesk: note: the server stored the ${type} as ${type}/${created.id}, not under the id sent (${created.sentId}).`)
    : undefined;
}

/**
 * Print a create's result: the answer (or `createdJson`), a table line `head` followed by `createdLines` (and
 * `more`), and in a JSON run the note on stderr when the server's id is not the one sent.
 */
export function emitCreated(
  ctx: Context,
  type: string,
  res: { status: number; body: unknown; created: CreatedId },
  head: () => string,
  more: () => string[] = () => [],
): void {
  ctx.emitWrite(res.status, createdJson(res.status, res.body, res.created), () =>
    [head(), ...createdLines(type, res.body, res.created), ...more()].join('\n'),
  );
  const note = ctx.format === 'table' ? undefined : createdNote(type, res.created);
  if (note) ctx.err(note);
}
