/**
 * `pdesk sandbox` run in-process for what it refuses before it starts: bad options and a port in use exit 2
 * naming the option. The running sandbox (its output, its profile, SIGINT) is a process test,
 * test/process/sandbox.test.ts.
 */
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { run as runPdesk } from '../../helpers/run.js';

describe('pdesk sandbox refuses before it starts', () => {
  it('bad options exit 2 naming the option, a port in use included', async () => {
    for (const [args, name] of [
      [['--port', '70000'], '--port'],
      [['--port', 'abc'], '--port'],
      [['--appointment-api', '3.0.0'], '--appointment-api'],
      [['--fail-rate', '1.5'], '--fail-rate'],
      [['--latency', '-1'], '--latency'],
      [['--push-to', 'ftp://x'], '--push-to'],
      [['--token-env', 'PDESK_SURELY_UNSET_VAR'], '--token-env'],
    ] as const) {
      const r = await runPdesk(['sandbox', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(name);
    }
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    const r = await runPdesk(['sandbox', '--port', String(port)]);
    blocker.close();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--port ${port}`);
    expect(r.stderr).toMatch(/in use/);
  });
});
