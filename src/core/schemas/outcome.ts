import { z } from 'zod';

/** FHIR OperationOutcome: the error body pdesk renders as its issues (decisions.md §3). */
export const OperationOutcome = z.looseObject({
  resourceType: z.literal('OperationOutcome'),
  issue: z
    .array(
      z.looseObject({
        severity: z.string().optional(),
        code: z.string().optional(),
        diagnostics: z.string().optional(),
        details: z.looseObject({ text: z.string().optional() }).optional(),
        expression: z.array(z.string()).optional(),
      }),
    )
    .default([]),
});
export type OperationOutcome = z.infer<typeof OperationOutcome>;

export function asOutcome(body: unknown): OperationOutcome | undefined {
  const r = OperationOutcome.safeParse(body);
  return r.success ? r.data : undefined;
}
