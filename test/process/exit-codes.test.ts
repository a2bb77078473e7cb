/**
 * Exit codes and streams of bin/pdesk.js as a real process (cli.md "Exit codes"): the code runProgram returns is
 * the code the process exits with, output goes to stdout and errors to stderr, for each class of outcome.
 * Everything else about errors runs in-process (test/cli/main.test.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, writeProfiles } from '../helpers/cli.js';

let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url!.startsWith('/notfound')) res.writeHead(404).end();
    else if (req.url!.startsWith('/html')) res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
    else res.writeHead(200, { 'content-type': 'application/fhir+json' }).end('{"resourceType":"Bundle","entry":[]}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

function configFor(base: string): string {
  const dir = tempDir();
  writeProfiles(dir, [{ name: 'p', namespaces: { portal: 'p', practice: 'q' }, practice: { baseUrl: base }, portal: { baseUrl: base } }]);
  return dir;
}

describe('exit codes of the process', () => {
  it('0: the answer on stdout, nothing on stderr', async () => {
    const r = await runCli(['appointments', 'list', '--json'], { configDir: configFor(`${origin}/ok`) });
    expect(r.code).toBe(0);
    expect(r.json()).toEqual([]);
    expect(r.stderr).toBe('');
  });

  it('2: a usage error on stderr, nothing on stdout', async () => {
    const r = await runCli(['appointments', 'list', '--bogus'], { configDir: configFor(`${origin}/ok`) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("pdesk: Unknown option '--bogus'.\n  Run with --help for usage.\n");
    expect(r.stdout).toBe('');
  });

  it('3: no profile', async () => {
    const r = await runCli(['appointments', 'list'], { configDir: tempDir() });
    expect(r.code).toBe(3);
    expect(r.stderr.split('\n')[0]).toBe('pdesk: No profile is selected and there is no default profile.');
  });

  it('4: the server answered 4xx', async () => {
    const r = await runCli(['appointments', 'list'], { configDir: configFor(`${origin}/notfound`) });
    expect(r.code).toBe(4);
    expect(r.stderr.split('\n')[0]).toBe('pdesk: HTTP 404 Not Found');
  });

  it('5: the server cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const dead = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((r) => closed.close(() => r()));
    const r = await runCli(['appointments', 'list'], { configDir: configFor(dead) });
    expect(r.code).toBe(5);
    expect(r.stderr.split('\n')[0]).toBe(`pdesk: Cannot reach ${dead} (connection refused).`);
  });

  it('6: the answer does not match the interface', async () => {
    const r = await runCli(['appointments', 'list'], { configDir: configFor(`${origin}/html`) });
    expect(r.code).toBe(6);
    expect(r.stderr.split('\n')[0]).toBe(
      "pdesk: The server's answer does not match the interface at $: the body is not JSON (content-type text/html).",
    );
  });

  it('0 after --dry-run: the request on stdout, nothing sent', async () => {
    const r = await runCli(['appointments', 'cancel', 'a1', '--actor', 'Patient/p1', '--comment', 'x', '--dry-run'], {
      configDir: configFor(`${origin}/ok`),
    });
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ op: 'A7', method: 'POST', url: `${origin}/ok/AppointmentResponse` });
    expect(r.stderr).toBe('');
  });
});
