/**
 * Reading a list that spans pages (Bundle `next` links, decisions.md §3): bounded in resources (`limit`), pages and
 * bytes (the profile's `limits`, src/core/bounds.ts), and against a server that pages without end.
 */
import { DEFAULT_LIMITS, ReadBudget } from './bounds.js';
import { type ApiResult, answerOf, requestLine } from './client/answer.js';
import type { CallOptions, PdeskClient } from './client.js';
import { ContractError, IncompleteListError } from './errors.js';
import type { OpId } from './ops.js';

/** The most resources a list command prints by default (`--limit`). */
export const DEFAULT_LIMIT = 1000;
/** The most pages one list reads by default (the profile's `limits.pages`), whatever the limit says. */
export const MAX_PAGES = DEFAULT_LIMITS.pages;
/** Empty pages in a row, each with a `next` link, after which a server is taken to page without end (exit 6). */
export const MAX_EMPTY_PAGES = 10;

export interface PageBounds {
  maxPages?: number;
  maxEmptyPages?: number;
}

/** `12 resources read on 2 pages`. */
function readSoFar(resources: number, pages: number): string {
  return `${resources} resource${resources === 1 ? '' : 's'} read on ${pages} page${pages === 1 ? '' : 's'}`;
}

/**
 * Read every page of a list until `limit` resources (0 = no limit), parsing each page with `parsePage`. A `next`
 * link seen before ends the list; a server that keeps sending `next` links (empty pages) is a ContractError naming
 * how many pages it sent; the profile's read bounds and a `next` link pdesk may not follow (src/core/paging.ts) are
 * an IncompleteListError. An answer that breaks the interface names the request of its page.
 */
export async function readPages<T>(
  client: PdeskClient,
  opId: OpId,
  first: CallOptions,
  parsePage: (body: unknown) => { items: T[]; next?: string },
  limit = DEFAULT_LIMIT,
  bounds: PageBounds = {},
): Promise<T[]> {
  const maxEmpty = bounds.maxEmptyPages ?? MAX_EMPTY_PAGES;
  const budget = client.opts?.readBudget ?? ReadBudget.of(client.profile, { maxPages: bounds.maxPages });
  const out: T[] = [];
  let res: ApiResult | undefined = await client.call(opId, first);
  const seen = new Set<string>();
  let pages = 0;
  let emptyInARow = 0;
  while (res) {
    pages += 1;
    budget.count(res.bytes);
    const page = answerOf(res, parsePage, pages);
    for (const item of page.items) {
      if (limit > 0 && out.length >= limit) return out;
      out.push(item);
    }
    if (!page.next || (limit > 0 && out.length >= limit) || seen.has(page.next)) break;
    emptyInARow = page.items.length ? 0 : emptyInARow + 1;
    if (emptyInARow >= maxEmpty)
      throw new ContractError(
        '$.link',
        `the server sent ${emptyInARow} empty pages in a row, each with a new next link (it pages without end)`,
        [`${pages} pages read; ${out.length} resources so far. Nothing more was asked for.`, requestLine(res.request)],
      );
    budget.next(readSoFar(out.length, pages));
    seen.add(page.next);
    try {
      res = await client.next(opId, page.next, { signal: first.signal });
    } catch (e) {
      if (e instanceof IncompleteListError) e.details.unshift(`${readSoFar(out.length, pages)}; the rest were not asked for.`);
      throw e;
    }
  }
  return out;
}
