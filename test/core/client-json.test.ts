/**
 * The client reads every answer through the bounded JSON reader (src/core/json.ts), against a hostile node:http
 * server: numeric ids beyond 2^53 keep their digits (issue 35, item 7: 9007199254740993 printed as
 * 9007199254740992), and an answer nested beyond the bound is exit 6 naming the path, the bound and the request.
 */
import { describe, expect, it } from 'vitest';
import { tempDir, writeProfiles } from '../helpers/config.js';
import { stubServer } from '../helpers/http.js';
import { run } from '../helpers/run.js';

async function stub(answer: string): Promise<string> {
  const s = await stubServer((_q, res) => {
    res.writeHead(200, { 'content-type': 'application/fhir+json' });
    res.end(answer);
  });
  const dir = tempDir();
  writeProfiles(dir, [
    {
      name: 'stub',
      appointmentApi: '1.0.0',
      namespaces: { portal: 'p', practice: 'q' },
      practice: { baseUrl: s.url },
      portal: { baseUrl: s.url },
    },
  ]);
  return dir;
}

describe('ids beyond 2^53 are kept exactly as sent', () => {
  it('a numeric PractitionerRole id 9007199254740993 prints with its digits, as JSON and in the table', async () => {
    const dir = await stub(
      '{"resourceType":"Bundle","entry":[{"resource":{"resourceType":"PractitionerRole","id":9007199254740993,"name":"Dr. Big"}},{"resource":{"resourceType":"PractitionerRole","id":1001,"name":"Dr. Small"}}]}',
    );
    const json = await run(['practitioners', 'list', '--json'], { configDir: dir });
    expect(json.code, json.stderr).toBe(0);
    expect(json.json().map((r: { id: string }) => r.id)).toEqual(['9007199254740993', '1001']);
    expect(json.stdout).not.toContain('9007199254740992');
    const table = await run(['practitioners', 'list', '--output', 'table'], { configDir: dir });
    expect(table.stdout.split('\n')[1]).toMatch(/^9007199254740993\s+Dr\. Big/);
    const api = await run(['api', 'GET', '/PractitionerRole'], { configDir: dir });
    expect(api.stdout).toContain('"id": "9007199254740993"');
  });

  it('where the interface wants a number, an integer beyond 2^53 is refused naming the path (exit 6), not rounded', async () => {
    const dir = await stub(
      '{"resourceType":"Bundle","entry":[{"medication-request":{"resourceType":"MedicationRequest","id":"mr-1","status":"active","intent":"order","medicationReference":{"reference":"Medication/1"},"subject":{"reference":"Patient/p"},"dispenseRequest":{"initialFill":{"quantity":{"value":9007199254740993}}}}}]}',
    );
    const r = await run(['medications', 'list', '--json'], { configDir: dir });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/dispenseRequest\.initialFill\.quantity\.value/);
    expect(r.stdout).toBe('');
  });
});
