/**
 * Compressed answers (decisions.md §3, "Compression"): pdesk asks for `Accept-Encoding: gzip, deflate, br` and both
 * transports decode what comes back with node:zlib. The body is decoded as it arrives, chunk by chunk, and the
 * response size bound applies to the decoded bytes as they come out: a zip bomb is refused once its output passes
 * the bound, never inflated whole. node:zlib is loaded by the first compressed answer only.
 */
import type { Transform } from 'node:stream';
import { DECODE_CODE, codeError, tooLargeError } from './transport.js';
import { nodeZlib } from './builtins.js';

/** What pdesk asks for on every request (the client's default header). */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** The codings of a Content-Encoding header in the order they were applied, `identity` left out. */
function codings(header: string): string[] {
  return header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

const KNOWN = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

/** A zlib "deflate" stream starts with a header whose first two bytes are a multiple of 31 (RFC 1950); raw deflate does not. */
function isZlibHeader(b: Buffer): boolean {
  return b.length >= 2 && (b[0]! & 0x0f) === 8 && ((b[0]! << 8) | b[1]!) % 31 === 0;
}

/**
 * Decodes one answer's body: `write` each chunk as it arrives, then `end`; `done` gets the decoded chunks and their
 * length, `fail` an error with a code (TOO_LARGE_CODE past `max` decoded bytes, DECODE_CODE for data that cannot be
 * decoded). Exactly one of them is called, once.
 */
export class BodyDecoder {
  private readonly chunks: Buffer[] = [];
  private length = 0;
  private streams: Transform[] = [];
  private settled = false;
  private received = false;

  private constructor(
    private readonly codings: string[],
    private readonly max: number,
    private readonly done: (chunks: Buffer[], length: number) => void,
    private readonly fail: (e: Error) => void,
  ) {}

  /**
   * A decoder for a Content-Encoding header, or undefined when the body is not encoded (no header, `identity`).
   * An encoding pdesk cannot decode fails at once, through `fail`, before any byte is read.
   */
  static for(
    contentEncoding: string | undefined,
    max: number,
    done: (chunks: Buffer[], length: number) => void,
    fail: (e: Error) => void,
  ): BodyDecoder | undefined {
    if (!contentEncoding) return undefined;
    const list = codings(contentEncoding);
    if (!list.length) return undefined;
    const d = new BodyDecoder(list, max, done, fail);
    const unknown = list.find((c) => !KNOWN.has(c));
    if (unknown)
      d.settle(codeError(`Content-Encoding ${JSON.stringify(unknown)} cannot be decoded (pdesk asks for ${ACCEPT_ENCODING})`, DECODE_CODE));
    return d;
  }

  /** The decoding streams, made at the first chunk: a `deflate` applied last is sniffed for its zlib header. */
  private start(firstChunk: Buffer): void {
    const zlib = nodeZlib();
    // As lenient as browsers and undici's fetch about a missing end of stream: what was decoded is kept, and a body
    // cut short fails as JSON, naming what it is.
    const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
    const streams = [...this.codings].reverse().map((c, i): Transform => {
      if (c === 'br') return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
      if (c === 'deflate') return i === 0 && !isZlibHeader(firstChunk) ? zlib.createInflateRaw(flush) : zlib.createInflate(flush);
      return zlib.createGunzip(flush);
    });
    for (let i = 0; i + 1 < streams.length; i++) streams[i]!.pipe(streams[i + 1]!);
    for (const s of streams)
      s.on('error', (e: Error) =>
        this.settle(codeError(`the body cannot be decoded as ${this.codings.join(', ')}: ${e.message}`, DECODE_CODE)),
      );
    this.streams = streams;
    const last = streams[streams.length - 1]!;
    last.on('data', (chunk: Buffer) => {
      if (this.settled) return;
      this.length += chunk.length;
      if (this.length > this.max) this.settle(tooLargeError());
      else this.chunks.push(chunk);
    });
    last.on('end', () => this.settle());
  }

  write(chunk: Buffer): void {
    if (this.settled || chunk.length === 0) return;
    if (!this.received) this.start(chunk);
    this.received = true;
    this.streams[0]!.write(chunk);
  }

  end(): void {
    if (this.settled) return;
    // No body at all (a 204, a HEAD): zlib would call an empty input a truncated stream.
    if (!this.received) this.settle();
    else this.streams[0]!.end();
  }

  /** Stop decoding (the request ended otherwise); nothing is reported. */
  destroy(): void {
    this.settled = true;
    this.teardown();
  }

  private teardown(): void {
    for (const s of this.streams) s.destroy();
  }

  private settle(e?: Error): void {
    if (this.settled) return;
    this.settled = true;
    if (e) {
      this.teardown();
      this.fail(e);
    } else this.done(this.chunks, this.length);
  }
}
