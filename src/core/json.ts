/**
 * Bounded JSON reading: what pdesk reads from outside (server answers, `--body` and other files the operator
 * names, bodies `pdesk listen` receives, lines of local stores) goes through `readJson`, which refuses a text
 * nested deeper than a bound, larger than a bound, or not JSON, and says where. It never overflows the stack on
 * any input: JSON.parse builds values iteratively in V8, but what walks a value afterwards (zod, the sanitisers,
 * redaction, JSON.stringify) recurses, so nothing deeper than the bound gets past: a large text is measured by a
 * loop over the text before anything is built (a deep one would take JSON.parse gigabytes), a small one is parsed
 * and its value walked no deeper than the bound (cheaper for a command that reads a few pages once, before V8
 * optimises anything).
 *
 * Integers beyond 2^53 (9007199254740993) are not kept by a JSON number: JSON.parse would silently make them
 * 9007199254740992. `bigIntegers: 'digits'` reads such an integer as a string of its digits (an id keeps them
 * exactly; where the interface wants a number, the schema refuses it, naming the path), `'refuse'` makes it a
 * problem naming the path (decisions.md §3, "Reading JSON").
 *
 * Errors never quote the text: a file that is not what it should be (a profile store symlinked to another file)
 * is described by line and column, not by its first characters.
 */

/** The deepest nesting read from a server answer or a local store (interface resources have a handful of levels). */
export const MAX_READ_DEPTH = 1000;
/**
 * The deepest nesting of a request body: a `--body` pdesk sends, a body `pdesk listen` receives. Well below
 * MAX_READ_DEPTH, so that a server's answer that echoes a body (in a Bundle, a few levels more) is still read.
 */
export const MAX_BODY_DEPTH = 100;
/** The largest request body: a `--body` pdesk sends (as `pdesk listen` receives at most). */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

export interface JsonLimits {
  /** Deepest nesting of arrays and objects (default MAX_READ_DEPTH). */
  maxDepth?: number;
  /** Largest text, in UTF-8 bytes (default: none). */
  maxBytes?: number;
  /** Integers beyond 2^53: read as their digits (a string; the default), or refused. */
  bigIntegers?: 'digits' | 'refuse';
}

/** Why a text was not read. `path` is a JSON path (`$.entry[0].resource`), cut short when long. */
export type JsonProblem =
  | { kind: 'syntax'; path: '$'; reason: string; line: number; column: number }
  | { kind: 'depth'; path: string; maxDepth: number }
  | { kind: 'size'; path: '$'; bytes: number; maxBytes: number }
  | { kind: 'big-integer'; path: string; digits: string };

export type JsonRead = { ok: true; value: unknown } | { ok: false; problem: JsonProblem };

/** What is wrong, as the end of a sentence that names the path before it (`… at $.a: <this>`). */
export function describeJsonProblem(p: JsonProblem): string {
  switch (p.kind) {
    case 'syntax':
      return `not valid JSON (${p.reason} at line ${p.line}, column ${p.column})`;
    case 'depth':
      return `the value is nested more than ${p.maxDepth} levels deep (pdesk reads at most ${p.maxDepth})`;
    case 'size':
      return `the text is ${p.bytes} bytes, more than the ${p.maxBytes} pdesk reads`;
    case 'big-integer':
      return `the integer ${p.digits.length > 40 ? `${p.digits.slice(0, 40)}…` : p.digits} is beyond what a JSON number keeps exactly (2^53); write it as a string`;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const MINUS = 0x2d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** The index after the string that opens at `i` (a quote), or -1 when it is not closed. */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q < 0) return -1;
    let b = q - 1;
    while (text.charCodeAt(b) === BACKSLASH) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** Integers of 16 or more digits may be beyond 2^53; shorter ones never are. */
const BIG_DIGITS = 16;
/** A run of 16 digits somewhere: only such a text may hold an integer beyond 2^53 (a regular expression: native speed). */
const LONG_DIGITS = /\d{16}/;
/**
 * Texts longer than this are scanned before JSON.parse builds anything: a million characters nest at most half a
 * million levels, some 30 MB of arrays for JSON.parse (which does not recurse) before the walk refuses them.
 */
const SCAN_FIRST_CHARS = 1_000_000;

interface Scan {
  /** Where an array or object opens deeper than the bound. */
  tooDeepAt?: number;
  /** [start, end) of each integer beyond 2^53, outside strings. */
  big?: Array<[number, number]>;
}

/**
 * One pass over the text, without recursion: the nesting depth (strings skipped whole) and the integers beyond
 * 2^53. It does not check the syntax (JSON.parse does); on text that is not JSON it ends all the same.
 */
function scan(text: string, maxDepth: number): Scan {
  const n = text.length;
  let depth = 0;
  let big: Array<[number, number]> | undefined;
  for (let i = 0; i < n; ) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i < 0) break;
    } else if (c === LBRACE || c === LBRACKET) {
      if (++depth > maxDepth) return { tooDeepAt: i, big };
      i++;
    } else if (c === RBRACE || c === RBRACKET) {
      depth--;
      i++;
    } else if (c === MINUS || isDigit(c)) {
      let j = i + 1;
      let integer = true;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (isDigit(d)) continue;
        if (d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === MINUS) integer = false;
        else break;
      }
      if (integer && j - i >= BIG_DIGITS && !Number.isSafeInteger(Number(text.slice(i, j)))) {
        big ??= [];
        big.push([i, j]);
      }
      i = j;
    } else i++;
  }
  return { big };
}

/** The path segments to the value at `pos` (an array or object opening, or a number), found by a second pass. */
function pathAt(text: string, pos: number): Array<string | number> {
  // One frame per open array or object: its index, or its last key and whether a key comes next.
  const frames: Array<{ array: boolean; index: number; key?: string; expectKey: boolean }> = [];
  for (let i = 0; i < pos; ) {
    const c = text.charCodeAt(i);
    const top = frames[frames.length - 1];
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end < 0) break;
      if (top && !top.array && top.expectKey) {
        try {
          top.key = JSON.parse(text.slice(i, end)) as string;
        } catch {
          top.key = text.slice(i + 1, end - 1);
        }
        top.expectKey = false;
      }
      i = end;
      continue;
    }
    if (c === LBRACE) frames.push({ array: false, index: 0, expectKey: true });
    else if (c === LBRACKET) frames.push({ array: true, index: 0, expectKey: false });
    else if (c === RBRACE || c === RBRACKET) frames.pop();
    else if (c === COMMA && top) {
      if (top.array) top.index++;
      else top.expectKey = true;
    } else if (c === COLON && top && !top.array) top.expectKey = false;
    i++;
  }
  return frames.map((f) => (f.array ? f.index : (f.key ?? '')));
}

/** `$.a.b[0]`, the middle cut out when there are more than eight segments. */
export function shortJsonPath(path: ReadonlyArray<string | number>): string {
  const seg = (p: string | number) =>
    typeof p === 'number' ? `[${p}]` : /^[A-Za-z_$][\w$-]*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`;
  if (path.length <= 8) return `$${path.map(seg).join('')}`;
  return `$${path.slice(0, 6).map(seg).join('')}…${seg(path[path.length - 1]!)}`;
}

/**
 * Read a JSON text within `limits`: the value, or the problem (never an exception, whatever the text). A text
 * that is empty or only white space is a syntax problem: callers that take "no body" decide that before.
 */
export function readJson(text: string, limits: JsonLimits = {}): JsonRead {
  const maxDepth = limits.maxDepth ?? MAX_READ_DEPTH;
  if (limits.maxBytes !== undefined && text.length > limits.maxBytes / 3) {
    const bytes = Buffer.byteLength(text);
    if (bytes > limits.maxBytes) return { ok: false, problem: { kind: 'size', path: '$', bytes, maxBytes: limits.maxBytes } };
  }
  // A large text is scanned before anything is built (JSON.parse of 30 million levels would take gigabytes), and so
  // is one that may hold an integer beyond 2^53. A small one is parsed first and its value walked (a walk bounded
  // by maxDepth): a command reads a few pages once, before V8 optimises anything, and the walk costs it less.
  const scanned = text.length > SCAN_FIRST_CHARS || LONG_DIGITS.test(text);
  let source = text;
  if (scanned) {
    const s = scan(text, maxDepth);
    if (s.tooDeepAt !== undefined) {
      // Syntax first: a text that is not JSON is reported as such, wherever it nests.
      const syntax = syntaxProblem(text);
      if (syntax) return { ok: false, problem: syntax };
      return { ok: false, problem: { kind: 'depth', path: shortJsonPath(pathAt(text, s.tooDeepAt)), maxDepth } };
    }
    if (s.big) {
      if (limits.bigIntegers === 'refuse') {
        const syntax = syntaxProblem(text);
        if (syntax) return { ok: false, problem: syntax };
        const [start, end] = s.big[0]!;
        return { ok: false, problem: { kind: 'big-integer', path: shortJsonPath(pathAt(text, start)), digits: text.slice(start, end) } };
      }
      // Each integer beyond 2^53 becomes the string of its digits.
      let out = '';
      let from = 0;
      for (const [start, end] of s.big) {
        out += `${text.slice(from, start)}"${text.slice(start, end)}"`;
        from = end;
      }
      source = out + text.slice(from);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    return {
      ok: false,
      problem: syntaxProblem(text) ?? { kind: 'syntax', path: '$', reason: 'it cannot be read', line: 1, column: 1 },
    };
  }
  if (!scanned) {
    const deep = deepPath(value, maxDepth);
    if (deep) return { ok: false, problem: { kind: 'depth', path: shortJsonPath(deep), maxDepth } };
  }
  return { ok: true, value };
}

const WS = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * Where a text stops being JSON, by line and column, without quoting it (JSON.parse's messages quote the text
 * around the error). Undefined when it is JSON. Iterative, like the scan: the state is a stack of what each open
 * array or object expects next.
 */
export function syntaxProblem(text: string): (JsonProblem & { kind: 'syntax' }) | undefined {
  const n = text.length;
  const at = (i: number, reason: string) => {
    let line = 1;
    let lineStart = 0;
    for (let k = text.indexOf('\n'); k >= 0 && k < i; k = text.indexOf('\n', k + 1)) {
      line++;
      lineStart = k + 1;
    }
    return { kind: 'syntax' as const, path: '$' as const, reason, line, column: i - lineStart + 1 };
  };
  // What may come next: a value, or inside an object a key, or after a value `,` / the closing bracket.
  type Want = 'value' | 'key' | 'colon' | 'after';
  const stack: Array<'array' | 'object'> = [];
  let want: Want = 'value';
  let i = 0;
  let first = true; // an array's first element may be `]` instead
  const skipWs = () => {
    while (i < n && WS(text.charCodeAt(i))) i++;
  };
  for (;;) {
    skipWs();
    if (i >= n) return stack.length || want !== 'after' ? at(n, 'the text ends too soon') : undefined;
    const c = text.charCodeAt(i);
    if (want === 'after') {
      const top = stack[stack.length - 1];
      if (!top) return at(i, 'there is more text after the value');
      if (c === COMMA) {
        want = top === 'array' ? 'value' : 'key';
        first = false;
        i++;
      } else if ((c === RBRACKET && top === 'array') || (c === RBRACE && top === 'object')) {
        stack.pop();
        i++;
      } else return at(i, `expected , or ${top === 'array' ? ']' : '}'}`);
      continue;
    }
    if (want === 'colon') {
      if (c !== COLON) return at(i, 'expected :');
      want = 'value';
      i++;
      continue;
    }
    if (want === 'key') {
      if (c === RBRACE && first && stack[stack.length - 1] === 'object') {
        stack.pop();
        want = 'after';
        i++;
        continue;
      }
      if (c !== QUOTE) return at(i, 'expected a property name in double quotes');
      const bad = stringProblem(text, i);
      if (typeof bad === 'object') return at(bad.at, bad.reason);
      i = bad;
      want = 'colon';
      continue;
    }
    // A value.
    if (c === RBRACKET && first && stack[stack.length - 1] === 'array') {
      stack.pop();
      want = 'after';
      i++;
      continue;
    }
    first = false;
    if (c === LBRACE || c === LBRACKET) {
      stack.push(c === LBRACE ? 'object' : 'array');
      want = c === LBRACE ? 'key' : 'value';
      first = true;
      i++;
      continue;
    }
    if (c === QUOTE) {
      const bad = stringProblem(text, i);
      if (typeof bad === 'object') return at(bad.at, bad.reason);
      i = bad;
    } else if (c === MINUS || isDigit(c)) {
      const m = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
      m.lastIndex = i;
      if (!m.exec(text)) return at(i, 'a number is not written as JSON writes numbers');
      i = m.lastIndex;
      if (i < n && (isDigit(text.charCodeAt(i)) || text.charCodeAt(i) === 0x2e))
        return at(i, 'a number is not written as JSON writes numbers');
    } else if (text.startsWith('true', i)) i += 4;
    else if (text.startsWith('false', i)) i += 5;
    else if (text.startsWith('null', i)) i += 4;
    else return at(i, 'unexpected character');
    want = 'after';
  }
}

/** The index after a valid string opening at `i`, or where and why it is not one. */
function stringProblem(text: string, i: number): number | { at: number; reason: string } {
  const n = text.length;
  for (let j = i + 1; j < n; j++) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) return j + 1;
    if (c < 0x20) return { at: j, reason: 'a control character inside a string' };
    if (c === BACKSLASH) {
      const e = text.charCodeAt(j + 1);
      if (e === 0x75) {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6))) return { at: j, reason: 'a bad \\u escape in a string' };
        j += 5;
      } else if ('"\\/bfnrt'.includes(text[j + 1] ?? '')) j++;
      else return { at: j, reason: 'a bad escape in a string' };
    }
  }
  return { at: n, reason: 'a string is not closed' };
}

/**
 * The path to the first array or object nested more than `max` levels deep in a value already in memory, or
 * undefined. It recurses, but never more than `max` levels (a thousand frames are safe; JSON.stringify's own
 * recursion overflows near 4,500), so no value overflows it; a walk with its own stack cost a command printing a
 * week of slots ten times as much, run once before V8 optimises anything.
 */
export function deepPath(value: unknown, max: number = MAX_READ_DEPTH): Array<string | number> | undefined {
  return deepFrom(value, max)?.reverse();
}

/** The path, innermost key first, to a value `left` levels below `v`; undefined when `v` is not that deep. */
function deepFrom(v: unknown, left: number): Array<string | number> | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  if (left === 0) return [];
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = deepFrom(v[i], left - 1);
      if (p) {
        p.push(i);
        return p;
      }
    }
  } else
    for (const k in v) {
      const p = deepFrom((v as Record<string, unknown>)[k], left - 1);
      if (p) {
        p.push(k);
        return p;
      }
    }
  return undefined;
}
