/**
 * `pdesk check`: the conformance suite (src/core/check) against the selected profile, `--profiles a,b` or
 * `--all-profiles` (run concurrently). Read-only unless `--write`: A1–A5, M1, M2, M4 are read; with `--write`
 * A6, A7, C1–C5 and M3 are sent too. A table on a terminal (rows as they finish), JSON with `--json` or when
 * piped, JUnit XML with `--junit <file>`. Exit 0, or 7 when a check failed or errored.
 */
import { Command } from 'commander';
import { examples } from '../../help.js';
import { collectList } from '../../options.js';
import { verb } from '../../verb.js';

export function checkCommand(): Command {
  return new Command('check')
    .description("run the conformance suite against the profile's practice system and portal (read-only unless --write)")
    .option('--service-category <system|code>', 'service category to search (A1, A3, A4) and book (A6)')
    .option('--write', 'also send the writes: book and cancel (A6, A7), chat (C1–C4), notify (C5), reorder (M3)')
    .option('--patient <id>', 'test patient for the writes (A6, C1–C4, M3)')
    .option('--encounter <id>', 'test chat for C1–C4; C4 closes it')
    .option('--email <addr>', 'test address for the notification (C5)')
    .option('--only <ops>', 'run only these operations or checks, e.g. A4,C1 or A4-free-only (repeatable or a comma list)', collectList)
    .option('--junit <file>', 'also write a JUnit XML report to this file')
    .option('--profiles <names>', 'check these profiles, concurrently (repeatable or a comma list)', collectList)
    .option('--all-profiles', 'check every stored profile, concurrently')
    .option('--slow <ms>', 'a request slower than this is a warning (default 2000)')
    .addHelpText(
      'after',
      [
        '',
        'Inputs not given as options are taken from the profile: "check": {serviceCategory, patient, encounter, email}.',
        'Results: pass, fail, skip (an input is missing), omit (a write check without --write), error (no verdict).',
        'Exit 0, or 7 when a check failed or errored.',
        examples(
          "pdesk check --service-category 'urn:pdesk:service-category|gp'",
          'pdesk check --write --patient pat-1 --encounter enc-test-1 \\',
          '  --email test@example.org --junit report.xml',
          'pdesk check --all-profiles --only A4,M1 --json',
        ),
      ].join('\n'),
    )
    .action(verb(() => import('./check.js')));
}
