/**
 * The id a server gave what pdesk created (decisions.md §16): FHIR servers assign their own ids on create, whatever
 * id the body carried. It is read from the answer's body (a resource of the type created), else from its `Location`
 * (`…/Type/{id}` or `…/Type/{id}/_history/{vid}`), else it is the id that was sent. Every face prints, records and
 * goes on with this id; when it differs from the id sent, they say so.
 */

export interface CreatedId {
  /** The id the resource has on the server (the one sent when the server named none); undefined when neither is known. */
  id?: string;
  /** Where `id` came from. */
  from: 'body' | 'location' | 'sent' | 'none';
  /** The answer's `Location` header, as received. */
  location?: string;
  /** The id the body carried when it was sent. */
  sentId?: string;
  /** The server stored it under another id than the one sent. */
  differs: boolean;
}

/** The id in a `Location` (`…/Appointment/6f1c`, `…/Appointment/6f1c/_history/2`), of `type` when given. */
export function idFromLocation(location: string | undefined, type?: string): string | undefined {
  if (!location) return undefined;
  // String work, no URL parse: a bulk send's audit records ask this for every row.
  const end = location.search(/[?#]/);
  const parts = (end < 0 ? location : location.slice(0, end)).split('/').filter(Boolean);
  const history = parts.length >= 4 && parts[parts.length - 2] === '_history' ? 2 : 0;
  const typeAt = parts.length - 2 - history;
  if (typeAt < 0) return undefined;
  const found = parts[typeAt]!;
  if (type ? found !== type : !/^[A-Z][A-Za-z]+$/.test(found)) return undefined;
  try {
    const id = decodeURIComponent(parts[typeAt + 1]!);
    return id || undefined;
  } catch {
    return undefined;
  }
}

/** The `id` of an answer body that is a resource of `type` (any resource but an OperationOutcome when not given). */
export function idFromBody(body: unknown, type?: string): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const r = body as { resourceType?: unknown; id?: unknown };
  if (type ? r.resourceType !== type : typeof r.resourceType !== 'string' || r.resourceType === 'OperationOutcome') return undefined;
  return typeof r.id === 'string' || typeof r.id === 'number' ? String(r.id) || undefined : undefined;
}

/** The server's id of what a create (`type`, sent with `sentId`) made, from its answer. */
export function createdId(answer: { body?: unknown; headers: Readonly<Record<string, string>> }, type: string, sentId?: string): CreatedId {
  const location = answer.headers.location;
  const fromBody = idFromBody(answer.body, type);
  const fromLocation = fromBody === undefined ? idFromLocation(location, type) : undefined;
  const id = fromBody ?? fromLocation ?? sentId;
  const from = fromBody !== undefined ? 'body' : fromLocation !== undefined ? 'location' : sentId !== undefined ? 'sent' : 'none';
  return {
    ...(id !== undefined ? { id } : {}),
    from,
    ...(location ? { location } : {}),
    ...(sentId !== undefined ? { sentId } : {}),
    differs: id !== undefined && sentId !== undefined && id !== sentId,
  };
}

/** The sentence a face adds when the server chose another id than the one sent; '' when it did not. */
export function storedAs(type: string, c: CreatedId): string {
  if (!c.differs) return '';
  return `The server stored it as ${type}/${c.id}, not under the id sent (${c.sentId}).`;
}

/**
 * The id the answer to a write names, for its audit record: a POST answered 2xx, from its body (unless the caller
 * wants the status only: a bulk send does not parse bodies), else from its `Location`.
 */
export function answeredId(method: string, res: { status: number; headers: Readonly<Record<string, string>>; text: string }, body = true) {
  if (method !== 'POST' || res.status < 200 || res.status > 299) return undefined;
  if (body && res.text.trim()) {
    try {
      const id = idFromBody(JSON.parse(res.text));
      if (id !== undefined) return id;
    } catch {
      /* not JSON: the caller reports it */
    }
  }
  return idFromLocation(res.headers.location);
}
