/**
 * The reports of pdesk check: the JUnit XML is well-formed, valid against junit-10.xsd (testsuites >
 * testsuite > testcase) and counts what the JSON summary counts; the JSON has the contract's shape; secrets a
 * server echoes back appear in none of them.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { type CheckReport, junitXml, reportJson, runSuite } from '../../../src/core/check/index.js';
import { xmlText } from '../../../src/core/check/junit.js';
import { Profile } from '../../../src/core/profile/schema.js';
import { sandboxProfile } from '../../../src/sandbox/profile.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/server.js';
import { stubServer } from '../../helpers/http.js';
import { junitProblems, parseXml, type XmlElement } from '../../helpers/xml.js';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

async function brokenRun(name: string): Promise<CheckReport> {
  sb = await startSandbox({ port: 0, breakOps: ['A4'], failOps: { M2: 503 } });
  const profile = Profile.parse({ ...sandboxProfile(sb.url, { name }), retries: { max: 0 } });
  const report = await runSuite({
    profile,
    only: ['A1', 'A3', 'A4', 'M2', 'C5'],
    inputs: { serviceCategory: 'urn:pdesk:service-category|gp' },
  });
  await sb.close();
  sb = undefined;
  return report;
}

const all = (el: XmlElement, name: string): XmlElement[] => [
  ...(el.name === name ? [el] : []),
  ...el.children.flatMap((c) => all(c, name)),
];

describe('JUnit XML', () => {
  test('is valid against junit-10.xsd, one testsuite per profile and area, and its counts match the JSON summaries', async () => {
    const reports = [await brokenRun('first'), await brokenRun('second')];
    for (const r of reports) expect(r.summary).toEqual({ pass: 2, fail: 2, error: 1, skip: 0, omit: 2 });
    const root = parseXml(junitXml(reports));
    expect(junitProblems(root)).toEqual([]);
    const suites = root.children;
    expect(suites.map((s) => s.attrs.name)).toEqual([
      'first.appointments',
      'first.notifications',
      'first.medication',
      'second.appointments',
      'second.notifications',
      'second.medication',
    ]);
    const sum = (key: string) => suites.reduce((t, s) => t + Number(s.attrs[key]), 0);
    const json = reports.map(reportJson);
    const total = (k: 'pass' | 'fail' | 'error' | 'skip' | 'omit') => json.reduce((t, r) => t + r.summary[k], 0);
    const tests = json.reduce((t, r) => t + r.results.length, 0);
    expect(sum('tests')).toBe(tests);
    expect(sum('failures')).toBe(total('fail'));
    expect(sum('errors')).toBe(total('error'));
    expect(sum('skipped')).toBe(total('skip') + total('omit'));
    expect(root.attrs).toMatchObject({ tests: String(tests), failures: String(total('fail')), errors: String(total('error')) });
    const cases = all(root, 'testcase');
    expect(cases).toHaveLength(tests);
    expect(all(root, 'failure')).toHaveLength(total('fail'));
    expect(all(root, 'error')).toHaveLength(total('error'));
    expect(all(root, 'skipped')).toHaveLength(total('skip') + total('omit'));
    // Per testsuite too: its counts are its testcases'.
    for (const s of suites) {
      const tc = s.children.filter((c) => c.name === 'testcase');
      expect(Number(s.attrs.tests)).toBe(tc.length);
      expect(Number(s.attrs.failures)).toBe(tc.filter((c) => c.children.some((x) => x.name === 'failure')).length);
    }
    const freeOnly = cases.find((c) => c.attrs.name!.startsWith('A4-free-only:'))!;
    expect(freeOnly.attrs.classname).toBe('pdesk.check.first.appointments');
    expect(freeOnly.children[0]!.attrs.message).toMatch(/^page 1 \$\.entry\[0\]\.resource\.start: \d+ of \d+ entries do not match/);
    const omitted = cases.find((c) => c.attrs.name!.startsWith('C5-notify:'))!;
    expect(omitted.children[0]).toMatchObject({ name: 'skipped', attrs: { message: 'omit: a write check: sent only with write' } });
    const m2 = cases.find((c) => c.attrs.name!.startsWith('M2-read:'))!;
    expect(m2.children[0]!.name).toBe('error');
    expect(m2.children.find((c) => c.name === 'system-out')!.text).toMatch(
      /GET http:\/\/127\.0\.0\.1:\d+\/practice\/MedicationRequest\/mr-1 → 503/,
    );
  });

  test('the validator itself refuses what junit-10.xsd refuses', () => {
    const bad = parseXml(
      '<testsuites skipped="1"><testsuite name="x" tests="1" failures="0"><testcase><failure/><note/></testcase></testsuite></testsuites>',
    );
    expect(junitProblems(bad)).toEqual([
      'testsuites: attribute skipped is not allowed',
      'testsuites/testsuite: attribute errors is required',
      'testsuites/testsuite/testcase: attribute name is required',
      'testsuites/testsuite/testcase: <note> is not allowed in <testcase>',
      'testsuites/testsuite/testcase/note: element <note> is not in the schema',
    ]);
    expect(() => parseXml('<a>1 & 2</a>')).toThrow(/unescaped &/);
    expect(() => parseXml('<a><b></a></b>')).toThrow(/closes/);
  });

  test('text is escaped, and characters XML cannot carry are dropped', () => {
    expect(xmlText('a<b & "c" \u0007\u001b[2Jd\ud800')).toBe('a&lt;b &amp; &quot;c&quot; [2Jd');
    expect(parseXml(`<a x="${xmlText('<&">')}">${xmlText('1 < 2 & 3')}</a>`)).toMatchObject({ attrs: { x: '<&">' }, text: '1 < 2 & 3' });
  });
});

describe('JSON report', () => {
  test('has the shape of docs/cli.md: {profile, startedAt, results: [{id, op, title, result, messages, durationMs, requests}], summary}', async () => {
    const json = reportJson(await brokenRun('sandbox'));
    expect(Object.keys(json)).toEqual(expect.arrayContaining(['profile', 'startedAt', 'results', 'summary']));
    expect(json.profile).toBe('sandbox');
    expect(Number.isNaN(Date.parse(json.startedAt))).toBe(false);
    for (const r of json.results) {
      expect(Object.keys(r)).toEqual(expect.arrayContaining(['id', 'op', 'title', 'result', 'messages', 'durationMs', 'requests']));
      for (const q of r.requests) expect(Object.keys(q).sort()).toEqual(['method', 'ms', 'status', 'url']);
    }
    const a4 = json.results.find((r) => r.id === 'A4-slots')!;
    expect(a4.messages[0]).toEqual({ type: 'error', text: 'required field is missing', path: 'page 1 $.entry[0].resource.start' });
    expect(a4.requests[0]).toMatchObject({ method: 'GET', status: 200 });
    expect(a4.requests[0]!.url).toMatch(/\/practice\/Slot\?service-category=urn%3Apdesk%3Aservice-category%7Cgp&schedule\.date=ge/);
  });
});

test('a token the server echoes back is redacted in the messages, the exchanges, the JSON and the JUnit report', async () => {
  const token = 'tok-secret-echoed-9f8e7d';
  process.env.PDESK_TEST_CHECK_TOKEN = token;
  const stub = await stubServer((req, res) => {
    res.writeHead(401, { 'content-type': 'application/fhir+json', 'set-cookie': `session=${token}` });
    res.end(
      JSON.stringify({
        resourceType: 'OperationOutcome',
        issue: [{ severity: 'error', code: 'login', diagnostics: `invalid token ${String(req.headers.authorization).slice(7)}` }],
      }),
    );
  });
  const profile = Profile.parse({
    ...sandboxProfile(stub.url),
    practice: { baseUrl: `${stub.url}/practice`, auth: { type: 'bearer', tokenEnv: 'PDESK_TEST_CHECK_TOKEN' } },
  });
  const report = await runSuite({ profile, only: ['A1'] });
  expect(stub.received[0]!.headers.authorization).toBe(`Bearer ${token}`);
  const r = report.results[0]!;
  expect(r.result).toBe('fail');
  expect(r.messages[0]!.text).toContain('invalid token ***');
  expect(r.exchanges[0]!.requestHeaders.authorization).toBe('Bearer ***');
  for (const text of [JSON.stringify(r.exchanges), JSON.stringify(r.messages), JSON.stringify(reportJson(report)), junitXml([report])])
    expect(text).not.toContain(token);
});
