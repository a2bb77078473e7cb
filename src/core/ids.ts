/** Resource ids as FHIR R4 defines them: what an operator may type where an id belongs. */

const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;

/** Letters, digits, `-` and `.`, 1 to 64 characters (FHIR R4 `id`). */
export function isFhirId(value: string): boolean {
  return FHIR_ID.test(value);
}
