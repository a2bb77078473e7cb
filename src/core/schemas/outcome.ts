import * as z from './zod.js';

/** FHIR OperationOutcome: the error body pdesk renders as its issues (decisions.md §3). */
export const OperationOutcome = z.looseObject({
  resourceType: z.literal('OperationOutcome'),
  issue: z._default(
    z.array(
      z.looseObject({
        severity: z.optional(z.string()),
        code: z.optional(z.string()),
        diagnostics: z.optional(z.string()),
        details: z.optional(z.looseObject({ text: z.optional(z.string()) })),
        expression: z.optional(z.array(z.string())),
      }),
    ),
    [],
  ),
});
export type OperationOutcome = z.infer<typeof OperationOutcome>;

export function asOutcome(body: unknown): OperationOutcome | undefined {
  const r = OperationOutcome.safeParse(body);
  return r.success ? r.data : undefined;
}
