import { formatTable } from '../../../src/text/table';
import { importEnvgapCsv } from '../../../src/importers/envgapCsv';
import { readEnvgapDir } from '../../../src/importers/readEnvgapDir';
import { envgapData } from '../../helpers/data';
import { FREQUENT_PACKAGES, PaperReport, PUBLISHED, type PublishedValue } from './paperValues';

// The EnvGap data set: ../shared beside the checkout, or ENVGAP_DATA (test/helpers/data.ts).
// Without it these checks fail, naming where they looked; they are never skipped.
type PaperFiles = ReturnType<typeof readEnvgapDir>;
function loadPaperData(): { files: PaperFiles; missing: null } | { files: null; missing: Error } {
  try {
    envgapData('results');
    envgapData('prompts', 'prompt_overview.csv');
    return { files: readEnvgapDir(envgapData()), missing: null };
  } catch (err) {
    return { files: null, missing: err as Error };
  }
}
const paper = loadPaperData();

/** A describe block over the data set, or, without it, one failing test that says where it looked. */
function withPaperData(name: string, body: (files: PaperFiles) => void): void {
  if (paper.missing) {
    const missing = paper.missing;
    test(name, () => {
      throw missing;
    });
  } else {
    const files = paper.files;
    describe(name, () => body(files));
  }
}

interface Comparison {
  source: string;
  claim: string;
  paper: number | null;
  ours: number | null;
  decimals: number;
  agrees: boolean;
}

/** Agreement at the paper's precision: ours rounds to the printed value (an exact half may round either way). */
function compare(value: PublishedValue, report: PaperReport): Comparison {
  const raw = value.ours(report);
  const ours = raw === null ? null : raw * value.scale;
  const agrees =
    ours === null || value.paper === null
      ? ours === value.paper
      : Math.abs(ours - value.paper) <= 0.5 * 10 ** -value.decimals + 1e-9;
  return { source: value.source, claim: value.claim, paper: value.paper, ours, decimals: value.decimals, agrees };
}

/**
 * Published values the CSVs do not give, even read as the paper's own script reads them; each is
 * explained in docs/metrics.md ("Published values that do not reproduce"). Ours is asserted exactly.
 */
const KNOWN_DEVIATIONS: Record<string, { paper: number; ours: number; reason: string }> = {
  'phantom Python: python-dateutil': {
    paper: 1,
    ours: 0,
    reason:
      'no successful primary Python run declares python-dateutil without loading it; the runs with one phantom ' +
      'package are python-levenshtein, cffi, jsonlines, requests, lz4 and tzdata',
  },
};

const shown = (v: number | null, decimals: number) => (v === null ? '-' : v.toFixed(decimals));

function comparisonTable(title: string, rows: Comparison[]): string {
  return (
    `\n${title}\n` +
    formatTable(
      ['source', 'claim', 'paper', 'ours', 'match'],
      rows.map((r) => [
        r.source, r.claim, shown(r.paper, r.decimals),
        // one more digit than printed, so a half that the paper rounded down is visible
        r.ours === null ? '-' : shown(r.ours, r.decimals + 1),
        r.agrees ? 'yes' : r.claim in KNOWN_DEVIATIONS ? 'NO (known, docs/metrics.md)' : 'NO',
      ]),
    ) +
    `\n${rows.filter((r) => r.agrees).length}/${rows.length} published values reproduced\n`
  );
}

withPaperData('the paper\'s published values, recomputed from its per-run CSVs', (files) => {
  const report = new PaperReport(importEnvgapCsv(files));
  const rows = PUBLISHED.map((value) => compare(value, report));

  afterAll(() => process.stdout.write(comparisonTable('EnvGap paper: published value beside ours (docs/metrics.md)', rows)));

  it('covers every published table and claim the CSVs determine', () => {
    expect(rows.length).toBeGreaterThanOrEqual(200);
    expect(new Set(rows.map((r) => r.source))).toEqual(
      new Set(['Fig. 5', 'Fig. 6', 'Fig. 8', 'Sec. 4.2', 'Sec. 6.2', 'Sec. 6.3', 'Sec. 6.5', 'Table 1', 'Table 2', 'Table 4',
        'Table 5', 'Table 6', 'Table 7', 'Table 10', 'Table 11']),
    );
  });

  it.each(rows.filter((r) => !(r.claim in KNOWN_DEVIATIONS)))('$source: $claim', (row) => {
    expect(row).toMatchObject({ agrees: true });
  });

  it.each(rows.filter((r) => r.claim in KNOWN_DEVIATIONS))('known deviation, $source: $claim', (row) => {
    const known = KNOWN_DEVIATIONS[row.claim];
    expect(row.agrees).toBe(false);
    expect(row.paper).toBe(known.paper);
    expect(row.ours).toBe(known.ours);
  });

  it('lists no known deviation that is not a published value', () => {
    for (const claim of Object.keys(KNOWN_DEVIATIONS)) expect(rows.map((r) => r.claim)).toContain(claim);
  });

  it('Tables 10 and 11 list the most frequent packages (ties aside, in the paper\'s order)', () => {
    for (const kind of ['phantom', 'hidden'] as const) {
      for (const [language, listed] of Object.entries(FREQUENT_PACKAGES[kind])) {
        const counts = listed.map(([, count]) => count);
        expect({ language, kind, counts: report.topCounts(language as never, kind, counts.length) }).toEqual({ language, kind, counts });
      }
    }
  });

  it('C++ system-library failures are those labelled MissingDep or SystemLib (Table 6)', () => {
    const labels = new Set(
      report.records.filter((r) => r.language === 'cpp' && r.trial === 1 && !r.first_attempt_success).map((r) => r.first_error_class),
    );
    expect(labels.has('MissingDep')).toBe(false);
    expect(labels.has('SystemLib')).toBe(true);
  });
});

/**
 * Codex's and Gemini's JavaScript runtime lists (and some installed lists) separate names with
 * spaces. The paper's script splits on commas only, so such a list is one long "name", and every
 * published value below comes from that reading. Read as lists, these values become (docs/metrics.md):
 */
const WHITESPACE_AWARE: Record<string, number> = {
  'phantom rate JavaScript ("about 49%")': 0.1044,
  'hidden rate JavaScript ("about 62%")': 0.5331,
  'bloat rate JavaScript ("about 22%")': 0.1135,
  'precision codex JavaScript': 1.0,
  'recall codex JavaScript': 0.4258,
  'F1 codex JavaScript': 0.506,
  'precision gemini JavaScript': 0.7533,
  'recall gemini JavaScript': 0.2804,
  'F1 gemini JavaScript': 0.1637,
  'precision all JavaScript': 0.8747,
  'recall all JavaScript': 0.3602,
  'F1 all JavaScript': 0.364,
  'phantom JavaScript: yargs': 14,
  'phantom JavaScript: sharp': 0,
  'phantom JavaScript: fast-csv': 0,
  'phantom JavaScript: lodash': 0,
  'phantom JavaScript: js-yaml': 0,
  'hidden JavaScript: ansi-styles': 48,
  'hidden JavaScript: supports-color': 14,
  'hidden JavaScript: has-flag': 14,
  'hidden JavaScript: emoji-regex': 41,
  'hidden JavaScript: is-fullwidth-code-point': 41,
};

withPaperData('sensitivity: the published values with space-separated lists read as lists', (files) => {
  const whitespaceAware = new PaperReport(importEnvgapCsv(files, { lists: 'whitespace-aware' }));
  const rows = PUBLISHED.map((value) => compare(value, whitespaceAware));
  const changed = rows.filter((r) => !r.agrees && !(r.claim in KNOWN_DEVIATIONS));

  afterAll(() => process.stdout.write(comparisonTable('whitespace-aware reading: the published values it changes', changed)));

  it('changes exactly the JavaScript values listed, to these', () => {
    expect(changed.map((r) => r.claim).sort()).toEqual(Object.keys(WHITESPACE_AWARE).sort());
    for (const row of changed) expect({ claim: row.claim, ours: row.ours?.toFixed(4) }).toEqual({ claim: row.claim, ours: WHITESPACE_AWARE[row.claim].toFixed(4) });
  });
});
