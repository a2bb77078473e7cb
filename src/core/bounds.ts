/**
 * How much pdesk reads (decisions.md §3, "Bounds"): one answer at most `limits.responseMB` (decoded), and the pages
 * one command reads (a list's pages, every search of a `check` run) at most `limits.readMB` and `limits.pages` in all.
 * The defaults are far above any real list (a thousand slots are about a megabyte) and far below what runs a
 * process out of memory; a server that keeps serving large pages with fresh `next` links is stopped by them.
 */
import type { Profile } from './profile/schema.js';
import { IncompleteListError, megabytes } from './errors.js';

export const DEFAULT_LIMITS = { responseMB: 64, readMB: 256, pages: 10_000 } as const;

const MB = 1024 * 1024;

/** The most bytes one answer's body may have (decoded): `limits.responseMB`. */
export function responseBytes(profile: Pick<Profile, 'limits'>): number {
  return Math.round((profile.limits?.responseMB ?? DEFAULT_LIMITS.responseMB) * MB);
}

/**
 * What the pages of one read may take in all: bytes and pages, counted as they are read. Each list gets its own
 * unless the client shares one across its lists (`ClientOptions.readBudget`: a `check` run).
 */
export class ReadBudget {
  pages = 0;
  bytes = 0;

  constructor(
    readonly maxBytes: number,
    readonly maxPages: number,
  ) {}

  static of(profile: Pick<Profile, 'limits'>, o: { maxPages?: number } = {}): ReadBudget {
    const l = profile.limits;
    return new ReadBudget(Math.round((l?.readMB ?? DEFAULT_LIMITS.readMB) * MB), o.maxPages ?? l?.pages ?? DEFAULT_LIMITS.pages);
  }

  /** Count a page read (`bytes`: its body's size). */
  count(bytes: number | undefined): void {
    this.pages += 1;
    this.bytes += bytes ?? 0;
  }

  /**
   * Before a next page is asked for: an IncompleteListError naming the bound when one is reached. `sofar` says what
   * the list holds so far (`4000 resources read`).
   */
  next(sofar: string): void {
    const pages = this.pages >= this.maxPages;
    if (!pages && this.bytes < this.maxBytes) return;
    const read = `${this.pages} page${this.pages === 1 ? '' : 's'} (${megabytes(this.bytes)})`;
    throw new IncompleteListError(
      pages
        ? `The list is incomplete: the server still links a next page after ${read}, and pdesk reads at most ${this.maxPages} pages (limits.pages).`
        : `The list is incomplete: the server still links a next page after ${read}, and pdesk reads at most ${megabytes(this.maxBytes)} (limits.readMB).`,
      [
        `${sofar}; nothing more was asked for.`,
        `Narrow the search or read fewer resources; raise limits.${pages ? 'pages' : 'readMB'} in the profile if lists this long are expected.`,
      ],
    );
  }
}
