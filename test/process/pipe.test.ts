/**
 * Output piped into a reader that stops early (`pdesk slots list … | head -1`): the process ends quietly with
 * exit 0 instead of an EPIPE stack trace (src/cli/main.ts, run). Only a real process and a real pipe show it.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, withSandbox } from '../helpers/cli.js';

const GP = 'urn:pdesk:service-category|gp';

describe('output to a reader that stops early', () => {
  // Whether the EPIPE comes before the process would have exited anyway is a race, so the pipeline runs 8 times
  // (without the fix about half of the runs crash).
  it('`slots list … | head -1`: exits 0 without an EPIPE stack trace', async () => {
    const env = await withSandbox();
    try {
      const once = async (i: number) => {
        const err = `${env.configDir}/stderr-${i}.txt`;
        const script = `'${process.execPath}' '${BIN}' slots list --service-category '${GP}' --from today --to +60d --limit 0 --output json 2>'${err}' | head -1; echo "exit \${PIPESTATUS[0]}"; cat '${err}'`;
        // Asynchronous: the sandbox runs in this process and must keep answering.
        const child = spawn('bash', ['-c', script], { env: { ...process.env, PDESK_CONFIG_DIR: env.configDir, TZ: 'UTC' } });
        let stdout = '';
        child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
        await new Promise((resolve) => child.on('close', resolve));
        return stdout;
      };
      for (const out of await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map(once))) expect(out).toBe('[\nexit 0\n');
    } finally {
      await env.close();
    }
  });
});
