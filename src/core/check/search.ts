/**
 * A search as a check reads it (A2–A5, M1, M4): every page, following `next` links up to MAX_PAGES, each page's
 * status, content type and Bundle checked, every entry validated on its own so one bad entry neither hides the
 * others nor stops the run. What it finds is kept as messages for every check that uses the search.
 */
import type * as z from '../schemas/zod.js';
import type { ApiResult, CallOptions, PdeskClient } from '../client.js';
import type { OpId } from '../ops.js';
import { ReadBudget } from '../bounds.js';
import { IncompleteListError } from '../errors.js';
import { BundleShell, nextLink } from '../schemas/bundle.js';
import { type SchemaIssue, validateAll } from '../schemas/common.js';
import { checkAnswer, listSink, Variants } from './answers.js';
import type { CheckMessage } from './model.js';

/** Pages a check follows at most (a real practice system may hold thousands of slots). */
export const MAX_PAGES = 20;

export interface SearchItem<T> {
  /** 1-based page the entry came on. */
  page: number;
  /**
   * Where the entry's resource is: `$.entry[3].resource` (`$.entry[3]` for a bare entry), naming its page when the
   * list has more than one (`page 2 $.entry[3].resource`): every message about the entry carries this path.
   */
  path: string;
  /** The entry's resource as received (unwrapped when it came as `{resource}`). */
  raw: unknown;
  /** The parsed resource; undefined when it breaks the interface. */
  value?: T;
}

export interface Search<T> {
  op: OpId;
  pages: ApiResult[];
  items: SearchItem<T>[];
  /** Entries that are not results (`_include`d resources, a server's OperationOutcome), as received. */
  included: unknown[];
  /** Parsed values of the valid entries. */
  valid: T[];
  /** `total` of the first page. */
  total?: number;
  /** Every page was read (no bound hit, no link left unfollowed). */
  complete: boolean;
  /** Entries that break the interface, and the first problem found in them. */
  invalid: number;
  firstProblem?: CheckMessage;
  /** Status, content type, schema (errors); paging (warnings); allowed variants (info). */
  messages: CheckMessage[];
}

/** Read one entry: its resource, validated, or every problem with it; `included` for an entry that is no result. */
export type EntryReader<T> = (
  entry: unknown,
  at: string,
  variants: Variants,
) => { raw: unknown; path: string; value?: T; issues: SchemaIssue[]; included?: boolean };

/** Entries that are `{resource: R}` or, an allowed variant, R itself. */
export function resourceEntries<S extends z.core.$ZodType>(schema: S): EntryReader<z.output<S>> {
  return (entry, at, variants) => {
    const wrapped = !!entry && typeof entry === 'object' && 'resource' in entry;
    const raw = wrapped ? (entry as { resource: unknown }).resource : entry;
    const path = wrapped ? `${at}.resource` : at;
    if (!wrapped) variants.note('bare-entry', at);
    variants.scan(raw, path);
    const r = validateAll(schema, raw, path);
    return r.ok ? { raw, path, value: r.data, issues: [] } : { raw, path, issues: r.issues };
  };
}

export interface SearchOptions {
  /** The interface says a searchset (A3, A4, A5, M4): another Bundle type is a warning. */
  searchset?: boolean;
  maxPages?: number;
}

export async function search<T>(
  client: PdeskClient,
  op: OpId,
  call: CallOptions,
  read: EntryReader<T>,
  o: SearchOptions = {},
): Promise<Search<T>> {
  const maxPages = o.maxPages ?? MAX_PAGES;
  const messages: CheckMessage[] = [];
  const sink = listSink(messages);
  const variants = new Variants();
  const out: Search<T> = { op, pages: [], items: [], included: [], valid: [], complete: false, invalid: 0, messages };
  const seen = new Set<string>();
  // The run's read bounds (a `check` client shares one budget across its searches: src/core/bounds.ts).
  const budget = client.opts?.readBudget ?? ReadBudget.of(client.profile);
  let res: ApiResult | undefined = await client.call(op, call);
  for (let page = 1; res; page++) {
    out.pages.push(res);
    budget.count(res.bytes);
    const what = page > 1 ? `page ${page}: ` : '';
    const body = res.body as { entry?: unknown; type?: unknown; total?: unknown; link?: unknown } | undefined;
    // Paths name the page when the list has more than one: `page 2 $.entry[3]` (page 1 too once it links a next).
    const $ = page > 1 || hasNext(body) ? `page ${page} $` : '$';
    checkAnswer(sink, op, res, what);
    const shell = validateAll(BundleShell, body, $);
    if (!shell.ok) for (const i of shell.issues) sink.add({ type: 'error', text: i.message, path: i.path });
    if (page === 1 && typeof body?.total === 'number') out.total = body.total;
    if (page === 1 && o.searchset && body && body.type !== 'searchset')
      sink.add({
        type: 'warning',
        text: `Bundle.type is ${JSON.stringify(body.type)}; the interface answers a searchset.`,
        path: '$.type',
      });
    const entries = Array.isArray(body?.entry) ? body.entry : [];
    entries.forEach((e, i) => {
      const at = `${$}.entry[${i}]`;
      const r = read(e, at, variants);
      if (r.included) {
        out.included.push(r.raw);
        return;
      }
      out.items.push({ page, path: r.path, raw: r.raw, value: r.value });
      if (r.value !== undefined) out.valid.push(r.value);
      else out.invalid++;
      for (const issue of r.issues) {
        const m: CheckMessage = { type: 'error', text: issue.message, path: issue.path };
        out.firstProblem ??= m;
        sink.add(m);
      }
    });
    const next = shell.ok ? nextLink(shell.data) : undefined;
    if (!next) {
      out.complete = true;
      break;
    }
    if (seen.has(next)) {
      sink.add({ type: 'error', text: 'the next link repeats a page already read (paging loops).', path: `${$}.link` });
      break;
    }
    seen.add(next);
    if (page >= maxPages) {
      sink.add({ type: 'warning', text: `stopped after ${maxPages} pages; more were linked.` });
      break;
    }
    try {
      budget.next(`${out.items.length} entries read in this search`);
      res = await client.next(op, next, { signal: call.signal });
    } catch (e) {
      // A list pdesk cannot read whole (a bound reached, a next link it may not follow) is an error, never a pass.
      if (!(e instanceof IncompleteListError)) throw e;
      sink.add({ type: 'error', text: `${what}${[e.message, ...e.details].join(' ')}`, path: `${$}.link` });
      break;
    }
  }
  if (out.pages.length > 1) sink.add({ type: 'info', text: `read ${out.pages.length} pages, following next links.` });
  if (out.complete && out.total !== undefined && out.total !== out.items.length)
    sink.add({ type: 'warning', text: `total is ${out.total}, but the pages hold ${out.items.length} entries.`, path: '$.total' });
  variants.report(sink);
  return out;
}

/** A Bundle that links a next page. */
function hasNext(body: { link?: unknown } | undefined): boolean {
  return Array.isArray(body?.link) && body.link.some((l) => (l as { relation?: unknown })?.relation === 'next');
}

/**
 * Why a search gave a check nothing to work with, naming the real cause: entries that break the interface, a list
 * cut short, or none at all (`what` names the entries: `medication requests`).
 */
export function emptyBecause(s: Search<unknown>, what: string, answerCheck: string): string {
  if (s.invalid)
    return `${s.op} listed ${s.items.length} ${what}, ${s.invalid === s.items.length ? 'none' : `only ${s.items.length - s.invalid}`} matching the interface (see ${answerCheck})`;
  if (!s.complete && s.items.length === 0) return `${s.op} listed no ${what} (its list is incomplete: see ${answerCheck})`;
  return `${s.op} lists no ${what}`;
}

/** An `error` for a check that rests on a search some entries of which break the interface. */
export function invalidEntries(s: Search<unknown>, answerCheck: string): CheckMessage | undefined {
  if (!s.invalid) return undefined;
  const first = s.firstProblem;
  return {
    type: 'error',
    text: `${s.invalid} of ${s.items.length} entries do not match the interface and could not be checked (see ${answerCheck})${first ? `; first: ${first.text}` : ''}.`,
    path: first?.path,
  };
}
