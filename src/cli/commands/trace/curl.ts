/**
 * A trace (src/core/trace.ts) as curl command lines a vendor can run (`pdesk trace show --curl`): each credential is
 * a shell variable (`$PDESK_PRACTICE_TOKEN`, `$PDESK_PORTAL_PASSWORD`…), named in a comment at the top with where to
 * get it.
 */
import type { Party } from '../../../core/ops.js';
import { REDACTED, isSecretHeader } from '../../../core/redact.js';
import { sanitize } from '../../../core/sanitize.js';
import type { Trace } from '../../../core/trace.js';

/** A word as a shell argument: single quotes, with `'` closed, escaped and reopened. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** `X-Api-Key` of the practice system → `PDESK_PRACTICE_X_API_KEY`. */
const variable = (party: Party, what: string) => `PDESK_${party.toUpperCase()}_${what.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;

export interface CurlScript {
  lines: string[];
  /** The variables the lines use, with what each must hold. */
  variables: Array<{ name: string; holds: string }>;
}

/** The curl command lines of `exchanges`, credentials as shell variables; a comment says which to set. */
export function curlScript(trace: Pick<Trace, 'exchanges'>): CurlScript {
  const vars = new Map<string, string>();
  const commands: string[] = [];
  for (const { run, exchange: e } of trace.exchanges) {
    const who = e.party === 'portal' ? 'portal' : 'practice system';
    const parts = ['curl', '-sS', '-i', '-X', shellQuote(e.method), shellQuote(e.url)];
    let lost = e.url.includes(REDACTED);
    for (const [name, value] of Object.entries(e.requestHeaders ?? {})) {
      if (isSecretHeader(name) && value.endsWith(REDACTED)) {
        const scheme = /^(\w+)\s/.exec(value)?.[1];
        if (name.toLowerCase() === 'authorization' && scheme?.toLowerCase() === 'basic') {
          const pass = variable(e.party, 'password');
          vars.set(pass, `the ${who}'s password`);
          const user = run?.auth?.[e.party]?.username;
          if (user) parts.push('-u', `${shellQuote(`${user}:`)}"$${pass}"`);
          else {
            const u = variable(e.party, 'username');
            vars.set(u, `the ${who}'s user name`);
            parts.push('-u', `"$${u}:$${pass}"`);
          }
        } else if (name.toLowerCase() === 'authorization') {
          const v = variable(e.party, 'token');
          vars.set(
            v,
            `the ${who}'s ${scheme?.toLowerCase() ?? 'bearer'} token: pdesk${run?.profile ? ` --profile ${run.profile}` : ''} auth token --party ${e.party}`,
          );
          parts.push('-H', `${shellQuote(`${name}: ${scheme ? `${scheme} ` : ''}`)}"$${v}"`);
        } else {
          const v = variable(e.party, name);
          vars.set(v, `the ${who}'s ${name} header`);
          parts.push('-H', `${shellQuote(`${name}: `)}"$${v}"`);
        }
        continue;
      }
      // pdesk decodes compressed answers; curl does with --compressed (a bare header would print the raw bytes).
      if (name.toLowerCase() === 'accept-encoding') {
        parts.push('--compressed');
        continue;
      }
      if (value.includes(REDACTED)) lost = true;
      parts.push('-H', shellQuote(`${name}: ${value}`));
    }
    if (e.requestBody !== undefined) {
      if (e.requestBody.includes(REDACTED)) lost = true;
      parts.push('--data-binary', shellQuote(e.requestBody));
    }
    // The comment is one line whatever the file holds: a line break in it would make the rest a command.
    commands.push(
      sanitize(
        `# ${e.startedAt} ${e.op ? `${e.op} ` : ''}${e.method} ${e.url} → ${e.status ?? e.error?.message ?? (e.sending ? 'outcome unknown (sent; no answer was traced)' : 'no answer')}${lost ? ' (a secret pdesk redacted as *** is left out: put it back by hand)' : ''}`,
      ),
      parts.join(' '),
    );
  }
  const variables = [...vars].map(([name, holds]) => ({ name, holds }));
  const head = variables.length
    ? ['# Set these variables first (the trace holds no secrets):', ...variables.map((v) => `#   ${v.name}: ${v.holds}`)]
    : [];
  return { lines: [...head, ...commands], variables };
}
