/**
 * `pdesk listen` run in-process for what it refuses before it listens: a bad --port, a port in use (exit 2 naming
 * it), a --token-env that is not set (exit 3 naming the variable). Receiving pushes, Ctrl-C and kill -9 are
 * process tests, test/process/listen.test.ts.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { sandboxProfile } from '../../../../src/sandbox/profile.js';
import { run as runPdesk, tempDir, writeProfiles } from '../../../helpers/run.js';

describe('pdesk listen refuses before it listens', () => {
  const dir = tempDir();
  writeProfiles(dir, [sandboxProfile('http://127.0.0.1:9')]);

  it('a bad --port exits 2 naming it; a port in use exits 2 naming it; nothing is listening after', async () => {
    const bad = await runPdesk(['listen', '--port', 'abc'], { configDir: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe('pdesk: --port must be a non-negative whole number, not "abc".');
    const high = await runPdesk(['listen', '--port', '70000'], { configDir: dir });
    expect(high.code).toBe(2);
    expect(high.stderr.split('\n')[0]).toBe('pdesk: --port must be at most 65535, not 70000.');
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const busy = await runPdesk(['listen', '--port', String(port)], { configDir: dir });
      expect(busy.code).toBe(2);
      expect(busy.stderr).toMatch(new RegExp(`^pdesk: --port ${port} is already in use on 127\\.0\\.0\\.1\\.`));
      expect(busy.stdout).toBe('');
    } finally {
      await new Promise<void>((r) => blocker.close(() => r()));
    }
  });

  it('a --token-env that is not set exits 3 naming the variable', async () => {
    const missing = await runPdesk(['listen', '--port', '0', '--token-env', 'NOT_SET_ANYWHERE'], {
      configDir: dir,
      env: { NOT_SET_ANYWHERE: undefined },
    });
    expect(missing.code).toBe(3);
    expect(missing.stderr.split('\n')[0]).toBe('pdesk: The environment variable NOT_SET_ANYWHERE (--token-env) is not set or empty.');
  });
});
