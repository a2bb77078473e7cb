/** Assertions on the errors core throws. */
import { FieldError } from '../../src/core/errors.js';

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
