/** Assertions on the errors core throws. */
import { expect } from 'vitest';
import { FieldError } from '../../src/core/errors.js';

/** What `p` rejects with, asserted to be a `kind` (a promise that resolves fails the test). */
export async function rejectionOf<E extends Error = Error>(
  p: Promise<unknown>,
  kind: abstract new (...args: never[]) => E = Error as unknown as abstract new (
    ...args: never[]
  ) => E,
): Promise<E> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(kind);
  return e as E;
}

/** The FieldError `fn` throws (any other outcome fails the test with what happened instead). */
export function fieldErrorOf(fn: () => unknown): FieldError {
  try {
    fn();
  } catch (e) {
    if (e instanceof FieldError) return e;
    throw new Error(`expected a FieldError, got ${(e as Error)?.name}: ${(e as Error)?.message}`);
  }
  throw new Error('expected a FieldError, but nothing was thrown');
}

/** How the CLI words a field error: the field as its option (`--patient must not be empty.`). */
export { flagOf } from '../../src/cli/options.js';
