/** Option parsers shared by the commands. Every bad value is a UsageError naming the option (exit 2). */
import { readFileSync, statSync } from 'node:fs';
import { UsageError } from '../core/errors.js';
import { MAX_BODY_BYTES, MAX_BODY_DEPTH, describeJsonProblem, readJson } from '../core/json.js';
import { isFullToken } from '../core/tokens.js';
import type { IO } from './io.js';

export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** A repeatable option that also takes comma lists: `--practitioner 1 --practitioner 2,3`. */
export const collectList = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean),
];

/** `a`, `a and b`, `a, b and c`: a list in one sentence. */
export function listOf(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** `--param key=value` pairs. */
export function keyValues(values: string[] | undefined, option = '--param'): Array<[string, string]> {
  return (values ?? []).map((v) => {
    const i = v.indexOf('=');
    if (i <= 0) throw new UsageError(`${option} must be key=value, not "${v}".`);
    return [v.slice(0, i), v.slice(i + 1)];
  });
}

export function positiveInt(value: string, option: string, { allowZero = false } = {}): number {
  if (!/^\d+$/.test(value) || (!allowZero && Number(value) === 0))
    throw new UsageError(`${option} must be a ${allowZero ? 'non-negative' : 'positive'} whole number, not "${value}".`);
  return Number(value);
}

export function positiveNumber(value: string, option: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || value.trim() === '') throw new UsageError(`${option} must be a positive number, not "${value}".`);
  return n;
}

/** `system|code` (service category); the system may be empty only if no `|` is given. */
export function systemCode(value: string, option: string): string {
  if (!isFullToken(value)) throw new UsageError(`${option} must be <system>|<code>, not "${value}".`);
  return value;
}

export function oneOf<T extends string>(value: string, allowed: readonly T[], option: string): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`${option} must be one of ${allowed.join(', ')}, not "${value}".`);
  return value as T;
}

/** Text of a file, or of standard input for `-` (read through the command's IO). */
export function readTextArg(value: string, option: string, io: Pick<IO, 'readStdin'>): string {
  try {
    return value === '-' ? io.readStdin() : readFileSync(value, 'utf8');
  } catch (e) {
    throw new UsageError(`${option}: cannot read ${value === '-' ? 'standard input' : value} (${(e as NodeJS.ErrnoException).code ?? e}).`);
  }
}

/**
 * JSON from a file or standard input (`--body`, `--slot-json`), bounded as a request body is (src/core/json.ts):
 * at most MAX_BODY_BYTES and MAX_BODY_DEPTH levels, integers within 2^53. Anything else is a usage error naming the
 * option, before anything is sent.
 */
export function readJsonArg(value: string, option: string, io: Pick<IO, 'readStdin'>): unknown {
  const where = value === '-' ? 'standard input' : value;
  const refuse = (problem: string) => new UsageError(`${option}: ${where} ${problem}; nothing was sent.`);
  if (value !== '-') {
    // A file too large is refused by its size, before it is read.
    let size = 0;
    try {
      size = statSync(value).size;
    } catch {
      /* readTextArg says why it cannot be read */
    }
    if (size > MAX_BODY_BYTES) throw refuse(`is ${size} bytes, more than the ${MAX_BODY_BYTES} pdesk sends`);
  }
  const r = readJson(readTextArg(value, option, io), { maxDepth: MAX_BODY_DEPTH, maxBytes: MAX_BODY_BYTES, bigIntegers: 'refuse' });
  if (r.ok) return r.value;
  const p = r.problem;
  if (p.kind === 'syntax') throw new UsageError(`${option}: ${where} is ${describeJsonProblem(p)}.`);
  if (p.kind === 'size') throw refuse(`is ${p.bytes} bytes, more than the ${p.maxBytes} pdesk sends`);
  if (p.kind === 'depth') throw refuse(`is nested more than ${p.maxDepth} levels deep at ${p.path} (pdesk sends at most ${p.maxDepth})`);
  throw new UsageError(`${option}: ${where}: at ${p.path}, ${describeJsonProblem(p)}; nothing was sent.`);
}

/** Fields core names whose option is not simply `--<field in kebab case>`. */
const FLAG_OF_FIELD: Record<string, string> = { slot: '--slot-json', appointmentId: '<appointmentId>' };

/** The command-line option of a field core names in a FieldError (`serviceCategory` → `--service-category`). */
export function flagOf(field: string): string {
  return FLAG_OF_FIELD[field] ?? `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}
