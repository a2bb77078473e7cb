/**
 * Profile file (cli.md "Profile file", decisions.md §1): strict, so an unknown key is an error naming the key.
 * `PROFILE_SCHEMA_VERSION` versions the stored form (conf has no migrations).
 */
import { z } from 'zod';
import { OP_IDS, type OpId, pathParams, placeholders } from '../core/ops.js';

export const PROFILE_SCHEMA_VERSION = 1;

const NonEmpty = z.string().min(1);
const HttpUrl = z
  .string()
  .url('expected an absolute URL')
  .refine((u) => /^https?:\/\//.test(u), 'expected an http:// or https:// URL');
// Names are HTTP tokens and values carry no control characters: otherwise every request of the profile fails
// later, as if the server could not be reached.
const Headers = z.record(
  z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "a header name is letters, digits and !#$%&'*+.^_`|~-"),
  z.string().regex(/^[^\u0000-\u0008\u000a-\u001f\u007f]*$/, 'a header value cannot hold a line break or control character'),
);

export const AuthConfig = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('none') }),
  z
    .strictObject({
      type: z.literal('bearer'),
      tokenEnv: NonEmpty.optional(),
      tokenCommand: NonEmpty.optional(),
      token: NonEmpty.optional(),
    })
    .refine((a) => [a.tokenEnv, a.tokenCommand, a.token].filter(Boolean).length === 1, {
      message: 'bearer auth takes exactly one of tokenEnv, tokenCommand, token',
    }),
  z
    .strictObject({
      type: z.literal('basic'),
      username: NonEmpty,
      passwordEnv: NonEmpty.optional(),
      password: NonEmpty.optional(),
    })
    .refine((a) => [a.passwordEnv, a.password].filter(Boolean).length === 1, {
      message: 'basic auth takes exactly one of passwordEnv, password',
    }),
  z
    .strictObject({
      type: z.literal('oauth2-client-credentials'),
      tokenUrl: HttpUrl,
      clientId: NonEmpty,
      clientSecretEnv: NonEmpty.optional(),
      privateKeyFile: NonEmpty.optional(),
      scope: z.string().optional(),
    })
    .refine((a) => [a.clientSecretEnv, a.privateKeyFile].filter(Boolean).length === 1, {
      message: 'oauth2-client-credentials takes exactly one of clientSecretEnv, privateKeyFile',
    }),
]);
export type AuthConfig = z.infer<typeof AuthConfig>;

export const TlsConfig = z.strictObject({ caFile: NonEmpty.optional(), certFile: NonEmpty.optional(), keyFile: NonEmpty.optional() });
export type TlsConfig = z.infer<typeof TlsConfig>;

const ApiBlock = z.strictObject({ baseUrl: HttpUrl.optional(), headers: Headers.optional() });

const PartyBase = { baseUrl: HttpUrl, auth: AuthConfig.optional(), tls: TlsConfig.optional(), headers: Headers.optional() };

export const RouteOverride = z.strictObject({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
  path: z.string().startsWith('/', 'a route path starts with /').optional(),
  contentType: NonEmpty.optional(),
});
export type RouteOverride = z.infer<typeof RouteOverride>;

export const Profile = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a profile name is letters, digits, ".", "_" or "-"'),
  /** A free label; `production` makes writes ask first (cli.md "Live systems"). */
  environment: z.string().optional(),
  /** Send GET only: every other request is refused before it is sent (exit 3), by every face. */
  readOnly: z.boolean().optional(),
  appointmentApi: z.enum(['2.0.0', '1.0.0']).default('2.0.0'),
  approvalFlow: z.boolean().default(false),
  namespaces: z.strictObject({ portal: NonEmpty, practice: NonEmpty }),
  practice: z.strictObject({
    ...PartyBase,
    appointment: ApiBlock.optional(),
    chat: ApiBlock.optional(),
    medication: ApiBlock.optional(),
  }),
  portal: z.strictObject({ ...PartyBase, chat: ApiBlock.optional() }),
  routes: z
    .partialRecord(z.enum(OP_IDS), RouteOverride)
    .superRefine((routes, ctx) => {
      // A placeholder the operation cannot fill would fail every call of it later: name it at import.
      for (const [op, r] of Object.entries(routes)) {
        const known = new Set([...pathParams(op as OpId), 'portalNamespace', 'practiceNamespace']);
        for (const name of placeholders(r?.path ?? ''))
          if (!known.has(name))
            ctx.addIssue({
              code: 'custom',
              path: [op, 'path'],
              message: `{${name}} is not a parameter of ${op}; it may use ${[...known].map((k) => `{${k}}`).join(', ')}`,
            });
      }
    })
    .optional(),
  timeouts: z
    .strictObject({ connectMs: z.number().int().positive().optional(), requestMs: z.number().int().positive().optional() })
    .optional(),
  retries: z.strictObject({ max: z.number().int().min(0).max(10).optional() }).optional(),
  /** The write audit trail (`audit/<profile>.ndjson`): `bodies: false` records each write without its body. */
  audit: z.strictObject({ bodies: z.boolean().optional() }).optional(),
  /** Bulk sends: `rate`, the most requests per second (`--rate` overrides it). */
  bulk: z.strictObject({ rate: z.number().positive().max(100_000).optional() }).optional(),
  /** Defaults for `pdesk check` (cli.md "Live systems"): the options of the same names override them. */
  check: z
    .strictObject({
      serviceCategory: z
        .string()
        .regex(/^[^|]+\|[^|]+$/, 'expected <system>|<code>')
        .optional(),
      patient: NonEmpty.optional(),
      encounter: NonEmpty.optional(),
      email: z.string().email('expected an email address').optional(),
    })
    .optional(),
});
export type Profile = z.infer<typeof Profile>;
export type ProfileInput = z.input<typeof Profile>;

/** A profile whose `environment` is production (`production` or `prod`, any case): writes ask first. */
export function isProduction(profile: Pick<Profile, 'environment'>): boolean {
  return /^prod(uction)?$/i.test(profile.environment?.trim() ?? '');
}
