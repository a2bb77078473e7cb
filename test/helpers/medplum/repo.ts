/**
 * A Medplum repository as a Medplum server behaves, over `MemoryRepository` (@medplum/fhir-router). The memory
 * repository stores, reads, patches and matches search filters, but leaves to the server what a deployment does
 * around that; this class adds it, each as the Medplum server does it (packages/server, src/fhir/repo.ts and
 * search.ts):
 *
 * - strict R4 validation (`validateResource`) of every create, update and patch result: 400 with the issues;
 * - ids: a create gets a new UUID whatever id was sent; an update needs a UUID id (400 "Invalid id") of a resource
 *   that exists (404: an ordinary client cannot create by PUT); `If-Match` against the version (412);
 * - search: an unknown resource type or search parameter is 400; `_count` (default 20, at most 1000) and `_offset`
 *   page the result, with `self`/`first`/`next`/`previous` links and `fullUrl`s on the configured base URL; `total`
 *   only when `_total` asks for it; forward chained parameters (`schedule.date`, `schedule.actor:PractitionerRole`)
 *   and `_include`, which the memory repository does not have;
 * - a bare id in a `subject` or `patient` reference search means `Patient/<id>`; any other bare id matches nothing
 *   (Medplum compares reference strings: `Slot?schedule=<id>` finds no slot, `schedule=Schedule/<id>` does).
 *
 * Not done: `_has`, `_revinclude`, `_filter`, cursors and multi-type search answer 400 saying the test peer lacks
 * them. One known difference stays: a date parameter over a Period (`Schedule.planningHorizon`) matches here by
 * overlap, as the FHIR spec and `matchesSearchRequest` do; Medplum's Postgres index keeps the period's start only.
 * The seed's schedules start today, so a search from today on gets the same answer from both.
 */
import { randomUUID } from 'node:crypto';
import {
  DEFAULT_MAX_SEARCH_COUNT,
  DEFAULT_SEARCH_COUNT,
  type Filter,
  type IncludeTarget,
  Operator,
  OperationOutcomeError,
  type SearchRequest,
  type WithId,
  badRequest,
  evalFhirPathTyped,
  formatSearchQuery,
  getSearchParameter,
  isUUID,
  matchesSearchRequest,
  parseParameter,
  preconditionFailed,
  splitSearchOnComma,
  toTypedValue,
  validateResource,
  validateResourceType,
} from '@medplum/core';
import { type CreateResourceOptions, MemoryRepository, type UpdateResourceOptions } from '@medplum/fhir-router';
import type { Bundle, BundleEntry, BundleLink, Reference, Resource } from '@medplum/fhirtypes';

const refuse = (text: string): never => {
  throw new OperationOutcomeError(badRequest(text));
};

/** The resource without what the server sets (`meta.versionId`, `meta.lastUpdated`). */
function withoutServerMeta<T extends Resource>(resource: T): T {
  if (!resource.meta) return resource;
  const { versionId: _v, lastUpdated: _l, ...meta } = resource.meta;
  return { ...resource, meta };
}

function validated<T extends Resource>(resource: T): T {
  validateResourceType(resource.resourceType);
  validateResource(resource);
  return resource;
}

export class MedplumRepository extends MemoryRepository {
  /** @param baseUrl Medplum's `baseUrl` setting (ends with `/`): links and `fullUrl`s are `{baseUrl}fhir/R4/…`. */
  constructor(private readonly baseUrl: () => string) {
    super();
  }

  fullUrl(resourceType: string, id: string): string {
    return `${this.baseUrl()}fhir/R4/${resourceType}/${id}`;
  }

  override async createResource<T extends Resource>(resource: T, options?: CreateResourceOptions): Promise<WithId<T>> {
    // Only a batch (or the seed) keeps the id it was given, as Medplum's `assignedId`.
    const id = options?.assignedId && resource.id ? resource.id : randomUUID();
    return super.createResource(validated({ ...withoutServerMeta(resource), id }));
  }

  // MemoryRepository's update creates whatever id it is given, and its patch calls this update, so a patch result
  // is validated here too.
  override async updateResource<T extends Resource>(resource: T, options?: UpdateResourceOptions): Promise<WithId<T>> {
    const id = resource.id ?? refuse('Missing id');
    if (!isUUID(id)) refuse('Invalid id');
    validated(resource);
    const existing = await this.readResource(resource.resourceType, id);
    if (options?.ifMatch && existing.meta?.versionId !== options.ifMatch) throw new OperationOutcomeError(preconditionFailed);
    return super.createResource(withoutServerMeta(resource) as WithId<T>);
  }

  override async search<T extends Resource>(request: SearchRequest<T>): Promise<Bundle<WithId<T>>> {
    const { resourceType } = request;
    if (request.types) refuse('(Medplum test peer) searching several resource types at once is not implemented');
    validateResourceType(resourceType);
    if (request.revInclude?.length) refuse('(Medplum test peer) _revinclude is not implemented');
    if (request.cursor) refuse('(Medplum test peer) _cursor is not implemented');
    const count = Math.min(request.count ?? DEFAULT_SEARCH_COUNT, DEFAULT_MAX_SEARCH_COUNT);
    const offset = request.offset ?? 0;
    for (const rule of request.sortRules ?? [])
      if (!getSearchParameter(resourceType, rule.code)) refuse(`Unknown search parameter: ${rule.code}`);

    const plain: Filter[] = [];
    const chained: Array<(r: Resource) => boolean> = [];
    for (const filter of request.filters ?? []) {
      if (filter.code.startsWith('_has:')) refuse('(Medplum test peer) _has is not implemented');
      if (filter.code === '_filter') refuse('(Medplum test peer) _filter is not implemented');
      if (filter.code.includes('.')) chained.push(await this.chain(resourceType, filter));
      else plain.push(this.plainFilter(resourceType, filter));
    }

    // All matches, sorted, from the memory repository; then the chains, the page and the links, as Medplum does.
    const all = await super.search({ resourceType, filters: plain, sortRules: request.sortRules });
    const matches = (all.entry ?? []).map((e) => e.resource!).filter((r) => chained.every((ok) => ok(r)));
    const page = count > 0 ? matches.slice(offset, offset + count) : [];
    const entry: BundleEntry<WithId<T>>[] = page.map((resource) => ({
      fullUrl: this.fullUrl(resourceType, resource.id),
      search: { mode: 'match' },
      resource,
    }));
    for (const target of request.include ?? []) entry.push(...((await this.included(target, page)) as BundleEntry<WithId<T>>[]));

    const url = (o: number) => `${this.baseUrl()}fhir/R4/${resourceType}${formatSearchQuery({ ...request, count, offset: o })}`;
    const link: BundleLink[] = [{ relation: 'self', url: url(offset) }];
    if (count > 0 && page.length > 0) {
      link.push({ relation: 'first', url: url(0) });
      if (matches.length > offset + count) link.push({ relation: 'next', url: url(offset + count) });
      if (offset > 0) link.push({ relation: 'previous', url: url(Math.max(0, offset - count)) });
    }
    const total = request.total === 'accurate' || request.total === 'estimate' ? matches.length : undefined;
    return {
      resourceType: 'Bundle',
      type: 'searchset',
      ...(count > 0 ? { entry } : {}),
      ...(total === undefined ? {} : { total }),
      link,
    };
  }

  /** A filter on the searched type: known parameters only, and a bare `subject`/`patient` id is a Patient. */
  private plainFilter(resourceType: string, filter: Filter): Filter {
    const param = getSearchParameter(resourceType, filter.code);
    if (!param) return refuse(`Unknown search parameter: ${filter.code}`);
    if (param.type !== 'reference' || (filter.code !== 'subject' && filter.code !== 'patient')) return filter;
    const value = splitSearchOnComma(filter.value)
      .map((v) => (v.includes('/') ? v : `Patient/${v}`))
      .join(',');
    return { ...filter, value };
  }

  /**
   * A forward chain (`schedule.date=ge…`, `schedule.actor:PractitionerRole=…`) as a test on the searched resource:
   * the last link's filter finds the target resources, then each link back keeps what references them. Parsed as
   * Medplum parses a chain, with its messages: a link's `:Type` modifier picks the target of a reference to several
   * types; the last part's modifier goes to the filter (where a type such as `:PractitionerRole` means plain equality).
   */
  private async chain(resourceType: string, filter: Filter): Promise<(r: Resource) => boolean> {
    const parts = filter.code.split('.');
    const links: Array<{ from: string; code: string }> = [];
    let type = resourceType;
    for (const part of parts.slice(0, -1)) {
      const [code, modifier] = part.split(':', 2) as [string, string | undefined];
      const param = getSearchParameter(type, code);
      if (param?.type !== 'reference') return refuse(`Invalid search parameter in chain: ${type}?${code}`);
      const targets = param.target ?? [];
      const next = targets.length === 1 ? targets[0] : targets.find((t) => t === modifier);
      if (!next) return refuse(`Unable to identify next resource type for search parameter: ${type}?${code}`);
      links.push({ from: type, code });
      type = next;
    }
    if (links.length > 3) refuse('Search chains longer than three links are not currently supported');
    const [code, modifier] = parts.at(-1)!.split(':', 2) as [string, string | undefined];
    const param = getSearchParameter(type, code);
    if (!param) return refuse(`Invalid search parameter at end of chain: ${type}?${code}`);
    const last = parseParameter(param, modifier ?? filter.operator, filter.value);

    let refs = (await super.search({ resourceType: type as Resource['resourceType'], filters: [last] })).entry?.map(
      (e) => `${type}/${e.resource!.id}`,
    );
    for (const link of links.slice(1).reverse()) {
      if (!refs?.length) break;
      const found = await super.search({ resourceType: link.from as Resource['resourceType'], filters: [this.refersTo(link.code, refs)] });
      refs = found.entry?.map((e) => `${link.from}/${e.resource!.id}`);
    }
    if (!refs?.length) return () => false;
    const test: SearchRequest = { resourceType: resourceType as Resource['resourceType'], filters: [this.refersTo(links[0]!.code, refs)] };
    return (r) => matchesSearchRequest(r, test);
  }

  private refersTo(code: string, refs: string[]): Filter {
    return { code, operator: Operator.EQUALS, value: refs.join(',') };
  }

  /** `_include=Type:param`: the resources the page's references point at, each once. */
  private async included(target: IncludeTarget, page: Resource[]): Promise<BundleEntry[]> {
    const param = getSearchParameter(target.resourceType, target.searchParam);
    if (!param?.expression) return refuse(`Invalid include parameter: ${target.resourceType}:${target.searchParam}`);
    const refs = evalFhirPathTyped(param.expression, page.map(toTypedValue))
      .map((v) => (v.value as Reference | undefined)?.reference)
      .filter((r): r is string => typeof r === 'string' && r.split('/').length === 2);
    const out: BundleEntry[] = [];
    for (const ref of new Set(refs)) {
      const [type, id] = ref.split('/') as [string, string];
      const resource = await this.readResource(type, id).catch(() => undefined);
      if (resource) out.push({ fullUrl: this.fullUrl(type, id), search: { mode: 'include' }, resource });
    }
    return out;
  }
}
