/**
 * Bundles (interface.md "Bundles"): search results whose entries are either `{resource: R}` or a bare R
 * (the Schedule sample), paging by `link[]` with relation `next` (decisions.md §3).
 */
import * as z from './zod.js';
import { parseResponse } from './common.js';

export const BundleShell = z.looseObject({
  resourceType: z.literal('Bundle'),
  type: z.optional(z.string()),
  total: z.optional(z.number().check(z.int(), z.nonnegative())),
  link: z.optional(z.array(z.looseObject({ relation: z.string(), url: z.string() }))),
  entry: z.optional(z.array(z.unknown())),
});
export type BundleShell = z.infer<typeof BundleShell>;

export interface BundlePage<T> {
  resources: T[];
  total?: number;
  next?: string;
}

function isWrapped(entry: unknown): entry is { resource: unknown } {
  return !!entry && typeof entry === 'object' && 'resource' in entry;
}

/** Parse one page of a search Bundle, unwrapping entries; a bad entry names `$.entry[i].resource.<field>`. */
export function parseBundle<S extends z.core.$ZodType>(schema: S, body: unknown): BundlePage<z.output<S>> {
  const shell = parseResponse(BundleShell, body);
  const resources = (shell.entry ?? []).map((e, i) =>
    isWrapped(e) ? parseResponse(schema, e.resource, `$.entry[${i}].resource`) : parseResponse(schema, e, `$.entry[${i}]`),
  );
  return { resources, total: shell.total, next: nextLink(shell) };
}

/** The URL of a Bundle's `next` link, if any. */
export function nextLink(shell: BundleShell): string | undefined {
  return shell.link?.find((l) => l.relation === 'next')?.url;
}
