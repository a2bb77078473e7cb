/** The profile that works against a running sandbox (printed on start, used by tests and `tui --sandbox`). */
import type { ProfileInput } from '../core/profile/schema.js';

export const SANDBOX_NAMESPACES = { portal: 'portal.example', practice: 'practice.example' } as const;

export function sandboxProfile(
  url: string,
  o: { name?: string; appointmentApi?: '1.0.0' | '2.0.0'; approvalFlow?: boolean } = {},
): ProfileInput {
  const base = url.replace(/\/+$/, '');
  return {
    name: o.name ?? 'sandbox',
    environment: 'sandbox',
    appointmentApi: o.appointmentApi ?? '2.0.0',
    approvalFlow: o.approvalFlow ?? false,
    namespaces: { ...SANDBOX_NAMESPACES },
    practice: { baseUrl: `${base}/practice`, auth: { type: 'none' } },
    portal: { baseUrl: `${base}/portal`, auth: { type: 'none' } },
    // `pdesk check` on the sandbox needs no options: a seeded service category, patient and address (seed.ts).
    // No encounter: the chat checks close it, so each `check --write --encounter <id>` names a fresh one.
    check: { serviceCategory: 'urn:pdesk:service-category|gp', patient: 'pat-1', email: 'emma.jansen@example.org' },
  };
}
