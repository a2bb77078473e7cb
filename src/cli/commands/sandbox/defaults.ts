/** The port `pdesk sandbox` listens on unless told, and the profile it saves for it. */
export const DEFAULT_SANDBOX_PORT = 4010;
export const SANDBOX_PROFILE_NAME = 'sandbox';
