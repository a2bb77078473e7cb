/**
 * `pdesk check --junit <file>`: JUnit XML as CI servers read it (the Jenkins/Ant schema: `testsuites` >
 * `testsuite` > `testcase`, as in the xunit plugin's junit-10.xsd). One testsuite per profile and area, one testcase per check; `fail` is a `failure`,
 * `error` an `error`, `skip` and `omit` are `skipped` with the reason. Counts: tests = every check, failures =
 * fail, errors = error, skipped = skip + omit (the JSON summary's numbers). The texts come from the report, whose
 * exchanges the client redacted; the CLI redacts the whole file once more before writing it.
 */
import { AREAS, type CheckReport, type CheckResult } from './model.js';
import { SIGNATURE } from './text.js';

/** XML 1.0 text: markup escaped, characters XML cannot carry (most C0 controls, lone surrogates) dropped. */
export function xmlText(s: string): string {
  return s
    .replace(
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      '',
    )
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const attrs = (a: Record<string, string | number>) =>
  Object.entries(a)
    .map(([k, v]) => ` ${k}="${xmlText(String(v))}"`)
    .join('');
const seconds = (ms: number) => (ms / 1000).toFixed(3);

function messageLines(r: CheckResult): string[] {
  return r.messages.map((m) => `${m.type}${m.path ? ` ${m.path}` : ''}: ${m.text}`);
}

function testcase(report: CheckReport, r: CheckResult): string {
  const head = `    <testcase${attrs({ name: `${r.id}: ${r.title}`, classname: `pdesk.check.${report.profile}.${r.area}`, time: seconds(r.durationMs) })}`;
  const first = r.messages.find((m) => m.type === 'error') ?? r.messages[0];
  const firstText = first ? `${first.path ? `${first.path}: ` : ''}${first.text}` : r.result;
  const body: string[] = [];
  if (r.result === 'fail')
    body.push(`      <failure${attrs({ message: firstText, type: 'fail' })}>${xmlText(messageLines(r).join('\n'))}</failure>`);
  else if (r.result === 'error')
    body.push(`      <error${attrs({ message: firstText, type: 'error' })}>${xmlText(messageLines(r).join('\n'))}</error>`);
  else if (r.result === 'skip' || r.result === 'omit') body.push(`      <skipped${attrs({ message: `${r.result}: ${firstText}` })}/>`);
  const out = [
    ...r.exchanges.map((e) => `${e.method} ${e.url} → ${e.status ?? e.error?.message ?? 'no answer'} (${e.ms} ms)`),
    ...(r.result === 'pass' ? messageLines(r) : []),
    ...report.created
      .filter((c) => c.check === r.id)
      .map((c) => `created ${c.resource}${c.note ? ` (${c.note})` : ''}${c.undo === 'failed' ? ' NOT UNDONE' : ''}`),
  ];
  if (out.length) body.push(`      <system-out>${xmlText(out.join('\n'))}</system-out>`);
  return body.length ? `${head}>\n${body.join('\n')}\n    </testcase>` : `${head}/>`;
}

const counts = (results: readonly CheckResult[]) => ({
  tests: results.length,
  failures: results.filter((r) => r.result === 'fail').length,
  errors: results.filter((r) => r.result === 'error').length,
  skipped: results.filter((r) => r.result === 'skip' || r.result === 'omit').length,
});

/** The JUnit XML of one or more profiles' reports. */
export function junitXml(reports: readonly CheckReport[]): string {
  const suites: string[] = [];
  let id = 0;
  for (const report of reports) {
    for (const area of AREAS) {
      const results = report.results.filter((r) => r.area === area);
      if (!results.length) continue;
      const ms = results.reduce((t, r) => t + r.durationMs, 0);
      suites.push(
        [
          `  <testsuite${attrs({
            name: `${report.profile}.${area}`,
            ...counts(results),
            time: seconds(ms),
            timestamp: report.startedAt.slice(0, 19),
            id: id++,
            package: `pdesk.check.${report.profile}`,
            hostname: 'localhost',
          })}>`,
          '    <properties>',
          `      <property${attrs({ name: 'profile', value: report.profile })}/>`,
          `      <property${attrs({ name: 'write', value: String(report.write) })}/>`,
          '    </properties>',
          ...results.map((r) => testcase(report, r)),
          '  </testsuite>',
        ].join('\n'),
      );
    }
  }
  const all = reports.flatMap((r) => r.results);
  const time = reports.reduce((t, r) => Math.max(t, r.durationMs), 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    // The schema's `testsuites` takes no `skipped` (the testsuites carry it).
    `<testsuites${attrs({ name: SIGNATURE, tests: all.length, failures: counts(all).failures, errors: counts(all).errors, time: seconds(time) })}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
