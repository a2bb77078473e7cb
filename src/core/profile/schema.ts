/**
 * Profile file (cli.md "Profile file", decisions.md §1): strict, so an unknown key is an error naming the key.
 * `PROFILE_SCHEMA_VERSION` versions the stored form (conf has no migrations).
 */
import { ConfigError } from '../errors.js';
import { jsonPath } from '../schemas/common.js';
import * as z from '../schemas/zod.js';
import { didYouMean } from '../suggest.js';
import { OP_IDS, type OpId, pathParams, placeholders } from '../ops.js';

export const PROFILE_SCHEMA_VERSION = 1;

const NonEmpty = z.string().check(z.minLength(1));
const HttpUrl = z.string().check(
  z.url('expected an absolute URL'),
  z.refine((u) => /^https?:\/\//.test(u), 'expected an http:// or https:// URL'),
);
// Names are HTTP tokens and values carry no control characters: otherwise every request of the profile fails
// later, as if the server could not be reached.
const Headers = z.record(
  z.string().check(z.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "a header name is letters, digits and !#$%&'*+.^_`|~-")),
  z.string().check(z.regex(/^[^\u0000-\u0008\u000a-\u001f\u007f]*$/, 'a header value cannot hold a line break or control character')),
);

export const AuthConfig = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('none') }),
  z
    .strictObject({
      type: z.literal('bearer'),
      tokenEnv: z.optional(NonEmpty),
      tokenCommand: z.optional(NonEmpty),
      token: z.optional(NonEmpty),
    })
    .check(
      z.refine((a) => [a.tokenEnv, a.tokenCommand, a.token].filter(Boolean).length === 1, {
        message: 'bearer auth takes exactly one of tokenEnv, tokenCommand, token',
      }),
    ),
  z
    .strictObject({
      type: z.literal('basic'),
      username: NonEmpty,
      passwordEnv: z.optional(NonEmpty),
      password: z.optional(NonEmpty),
    })
    .check(
      z.refine((a) => [a.passwordEnv, a.password].filter(Boolean).length === 1, {
        message: 'basic auth takes exactly one of passwordEnv, password',
      }),
    ),
  z
    .strictObject({
      type: z.literal('oauth2-client-credentials'),
      tokenUrl: HttpUrl,
      clientId: NonEmpty,
      clientSecretEnv: z.optional(NonEmpty),
      privateKeyFile: z.optional(NonEmpty),
      scope: z.optional(z.string()),
    })
    .check(
      z.refine((a) => [a.clientSecretEnv, a.privateKeyFile].filter(Boolean).length === 1, {
        message: 'oauth2-client-credentials takes exactly one of clientSecretEnv, privateKeyFile',
      }),
    ),
]);
export type AuthConfig = z.infer<typeof AuthConfig>;

export const TlsConfig = z.strictObject({
  caFile: z.optional(NonEmpty),
  certFile: z.optional(NonEmpty),
  keyFile: z.optional(NonEmpty),
});
export type TlsConfig = z.infer<typeof TlsConfig>;

const ApiBlock = z.strictObject({ baseUrl: z.optional(HttpUrl), headers: z.optional(Headers) });

const PartyBase = { baseUrl: HttpUrl, auth: z.optional(AuthConfig), tls: z.optional(TlsConfig), headers: z.optional(Headers) };

export const RouteOverride = z.strictObject({
  method: z.optional(z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])),
  path: z.optional(z.string().check(z.startsWith('/', 'a route path starts with /'))),
  contentType: z.optional(NonEmpty),
});
export type RouteOverride = z.infer<typeof RouteOverride>;

export const Profile = z.strictObject({
  name: z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a profile name is letters, digits, ".", "_" or "-"')),
  /** A free label; `production` makes writes ask first (cli.md "Live systems"). */
  environment: z.optional(z.string()),
  /** Send GET only: every other request is refused before it is sent (exit 3), by every face. */
  readOnly: z.optional(z.boolean()),
  appointmentApi: z._default(z.enum(['2.0.0', '1.0.0']), '2.0.0'),
  approvalFlow: z._default(z.boolean(), false),
  /**
   * The shape of the bodies pdesk builds (decisions.md §16): `interface` (default) as docs/interface.md shows them,
   * `r4` valid FHIR R4 for servers that insist on it. Read it with `dialectOf` (src/core/api/dialect.ts).
   */
  dialect: z.optional(z.enum(['interface', 'r4'])),
  namespaces: z.strictObject({ portal: NonEmpty, practice: NonEmpty }),
  practice: z.strictObject({
    ...PartyBase,
    appointment: z.optional(ApiBlock),
    chat: z.optional(ApiBlock),
    medication: z.optional(ApiBlock),
  }),
  portal: z.strictObject({ ...PartyBase, chat: z.optional(ApiBlock) }),
  routes: z.optional(
    z.partialRecord(z.enum(OP_IDS), RouteOverride).check(
      z.superRefine((routes, ctx) => {
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
      }),
    ),
  ),
  timeouts: z.optional(
    z.strictObject({
      connectMs: z.optional(z.number().check(z.int(), z.positive())),
      requestMs: z.optional(z.number().check(z.int(), z.positive())),
    }),
  ),
  retries: z.optional(z.strictObject({ max: z.optional(z.number().check(z.int(), z.gte(0), z.lte(10))) })),
  /** The write audit trail (`audit/<profile>.ndjson`): `bodies: false` records each write without its body. */
  audit: z.optional(z.strictObject({ bodies: z.optional(z.boolean()) })),
  /**
   * Paging (decisions.md §3): `rewriteOrigin` follows a `next` link on another origin on the profile's own origin
   * instead (default: when the link's path is under the profile's base path).
   */
  paging: z.optional(z.strictObject({ rewriteOrigin: z.optional(z.boolean()) })),
  /**
   * Read bounds (decisions.md §3, "Bounds"): `responseMB` for one answer (decoded), `readMB` and `pages` for all the
   * pages a command reads (a list, a `check` run). Defaults in src/core/bounds.ts.
   */
  limits: z.optional(
    z.strictObject({
      responseMB: z.optional(z.number().check(z.positive(), z.lte(4096))),
      readMB: z.optional(z.number().check(z.positive(), z.lte(65_536))),
      pages: z.optional(z.number().check(z.int(), z.positive(), z.lte(1_000_000))),
    }),
  ),
  /** Bulk sends: `rate`, the most requests per second (`--rate` overrides it). */
  bulk: z.optional(z.strictObject({ rate: z.optional(z.number().check(z.positive(), z.lte(100_000))) })),
  /** Defaults for `pdesk check` (cli.md "Live systems"): the options of the same names override them. */
  check: z.optional(
    z.strictObject({
      serviceCategory: z.optional(z.string().check(z.regex(/^[^|]+\|[^|]+$/, 'expected <system>|<code>'))),
      patient: z.optional(NonEmpty),
      encounter: z.optional(NonEmpty),
      email: z.optional(z.email('expected an email address')),
    }),
  ),
});
export type Profile = z.infer<typeof Profile>;
export type ProfileInput = z.input<typeof Profile>;

/** A profile whose `environment` is production (`production` or `prod`, any case): writes ask first. */
export function isProduction(profile: Pick<Profile, 'environment'>): boolean {
  return /^prod(uction)?$/i.test(profile.environment?.trim() ?? '');
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A zod schema's definition, as far as keysAt reads it (zod/mini's `_zod.def`). */
interface Def {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  innerType?: z.core.$ZodType;
  in?: z.core.$ZodType;
  options?: z.core.$ZodType[];
  discriminator?: string;
  valueType?: z.core.$ZodType;
  values?: unknown[];
}
const defOf = (s: z.core.$ZodType | undefined) => (s as unknown as { _zod: { def: Def } } | undefined)?._zod.def;

/**
 * The keys the profile schema allows in the object at `path` of `input` (for "did you mean" on an unknown key):
 * through optional, default and pipe wrappers, a record's values and, in a union (`auth`), the option whose
 * discriminator the input names (else every option's keys).
 */
function keysAt(schema: z.core.$ZodType, path: readonly PropertyKey[], input: unknown): string[] {
  let def = defOf(schema);
  let value = input;
  for (let i = 0; ; ) {
    while (def && (def.type === 'optional' || def.type === 'default' || def.type === 'nullable' || def.type === 'pipe'))
      def = defOf(def.type === 'pipe' ? def.in : def.innerType);
    if (def?.type === 'union') {
      const at = def.discriminator && isObject(value) ? value[def.discriminator] : undefined;
      const options = def.options ?? [];
      const chosen = options.filter((o) => defOf(defOf(o)?.shape?.[def!.discriminator ?? ''])?.values?.includes(at));
      return [...new Set((chosen.length ? chosen : options).flatMap((o) => Object.keys(defOf(o)?.shape ?? {})))];
    }
    if (i === path.length) return Object.keys(def?.shape ?? {});
    const key = path[i++]!;
    value = isObject(value) ? value[String(key)] : undefined;
    def = defOf(def?.type === 'record' ? def.valueType : def?.shape?.[String(key)]);
    if (!def) return [];
  }
}

/** Validate a profile object; an unknown key or bad value is a ConfigError naming the key or path. */
export function validateProfile(input: unknown, source: string): Profile {
  const r = Profile.safeParse(input);
  if (r.success) return r.data;
  // An unknown key (a typo such as "praktice") explains the other issues it causes: report it first.
  const issue = r.error.issues.find((i) => i.code === 'unrecognized_keys') ?? r.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const keys = (issue as { keys: string[] }).keys;
    const at = issue.path.length ? ` in ${jsonPath(issue.path).slice(2)}` : '';
    // A single mistyped key gets the key it most likely meant.
    const hint = keys.length === 1 ? didYouMean(keys[0]!, keysAt(Profile, issue.path, input)) : '';
    throw new ConfigError(`Unknown key ${keys.map((k) => `"${k}"`).join(', ')}${at} in ${source}${hint || '.'}`);
  }
  const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
  throw new ConfigError(
    `Invalid profile in ${source} at ${jsonPath(issue.path)}: ${missing ? 'required field is missing' : issue.message}.`,
  );
}
