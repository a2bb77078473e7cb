/**
 * Entry of dist/cli.cjs, the bundle one-shot commands run from (src/cli/route.ts decides): clients send
 * through node:http (src/core/transport-http.ts), so a one-shot command never loads undici.
 */
import { setDefaultTransport } from '../core/transport-default.js';

setDefaultTransport('http');

export { run } from './main.js';
