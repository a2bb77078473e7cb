/**
 * Who the operator at this desk is: recorded on every message sent, every assignment and every audit record of the
 * team store. `PDESK_OPERATOR`, else `operator` in the settings file (src/core/settings.ts), else the
 * operating-system user. One function for every face.
 */
import { osUser } from './audit.js';
import { ConfigError } from './errors.js';
import { operatorProblem, type Settings, SETTINGS_FILE } from './settings.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface Operator {
  name: string;
  /** Where the name came from: `PDESK_OPERATOR`, the settings file, or the operating-system user. */
  source: 'PDESK_OPERATOR' | 'settings' | 'os-user';
}

/** The operator: PDESK_OPERATOR (when set and not empty), else `settings.operator`, else the OS user. */
export function operatorOf(env: Env, settings: Settings = {}): Operator {
  const fromEnv = env.PDESK_OPERATOR;
  if (fromEnv !== undefined && fromEnv !== '') {
    const problem = operatorProblem(fromEnv);
    if (problem) throw new ConfigError(`PDESK_OPERATOR ${problem}.`, [`Unset it to use "operator" in ${SETTINGS_FILE} or the login name.`]);
    return { name: fromEnv, source: 'PDESK_OPERATOR' };
  }
  // settings.operator was checked when the file was read (readSettings).
  if (settings.operator !== undefined) return { name: settings.operator, source: 'settings' };
  return { name: osUser(env), source: 'os-user' };
}
