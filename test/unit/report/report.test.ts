import { parseAnyRecordJsonl } from '../../../src/importers/anyRecordJsonl';
import { reportSections } from '../../../src/report';
import { intervalOf, pctWithInterval, rateDatum, type Figure, type Table } from '../../../src/report/figure';
import { renderReportHtml } from '../../../src/report/html';
import { allProtocolRecords, paperInstanceRecords, withConfirmations } from '../../helpers/reportRecords';

const figure = (items: { kind: string; id: string }[], id: string) => items.find((i) => i.id === id) as Figure;
const valuesOf = (f: Figure) => ((f.spec as { data: { values: Record<string, unknown>[] } }).data.values);

describe('the sections of the three protocols', () => {
  test('one per protocol with records, each figure captioned', async () => {
    const sections = reportSections(await allProtocolRecords());
    expect(sections.map((s) => s.id)).toEqual(['environment-gap', 'readme', 'readiness']);
    expect(sections.map((s) => s.items.filter((i) => i.kind === 'figure').length)).toEqual([7, 2, 2]);
    for (const item of sections.flatMap((s) => s.items)) expect(item.caption.length).toBeGreaterThan(40);
  });

  test('the first-attempt grid has a cell per primary instance, linked only where a UI address is known', () => {
    const records = paperInstanceRecords();
    const plain = figure(reportSections({ instances: records, readme: [], readiness: [] })[0].items, 'first-attempt-grid');
    expect(valuesOf(plain)).toHaveLength(records.filter((r) => r.trial === 1).length);
    expect(valuesOf(plain)[0]).not.toHaveProperty('url');
    const linked = figure(reportSections({ instances: records, readme: [], readiness: [] }, { instanceUrl: (id) => `ui:${id}` })[0].items, 'first-attempt-grid');
    expect(valuesOf(linked).every((d) => String(d.url).startsWith('ui:envgap-paper/'))).toBe(true);
    // Gen outcomes as the records say: the paper's first-attempt successes are the dark cells.
    const firstAttempt = records.filter((r) => r.trial === 1 && r.first_attempt_success).length;
    expect(valuesOf(plain).filter((d) => d.outcome === 'first attempt')).toHaveLength(firstAttempt);
  });

  test('repair depth: the buckets of each (agent, language) add up to its instances', () => {
    const records = paperInstanceRecords();
    const depth = figure(reportSections({ instances: records, readme: [], readiness: [] })[0].items, 'repair-depth');
    const claudePython = valuesOf(depth).filter((d) => d.agent === 'claude' && d.language === 'python').reduce((n, d) => n + Number(d.count), 0);
    expect(claudePython).toBe(records.filter((r) => r.trial === 1 && r.agent === 'claude' && r.language === 'python' && r.status !== 'error').length);
  });
});

describe('what the agents spent', () => {
  const table = (items: { kind: string; id: string }[], id: string) => items.find((i) => i.id === id) as Table | undefined;

  test('a usage table per protocol where the records carry usage; none for gap records without it (imported ones)', async () => {
    const all = await allProtocolRecords();
    const usage = { calls: 3, tokens_in: 12_345, tokens_out: 678, cost_usd: 0.25, cost_calls: 2, agent_time_s: 61.2, agent_versions: ['claude-code 2.1.332'], cost_sources: ["Claude Code's own list-price estimate"] };
    const instances = [{ ...all.instances[0], agent_usage: usage }, ...all.instances.slice(1)];
    const [gap, readme, readiness] = reportSections({ ...all, instances });
    const gapUsage = table(gap.items, 'agent-usage')!;
    expect(gapUsage.head).toEqual(['agent', 'language', 'instances', 'calls', 'tokens in', 'tokens out', 'cost $', 'cost estimate by', 'agent s', 'version']);
    expect(gapUsage.rows).toEqual([[all.instances[0].agent, all.instances[0].language, '1', '3', '12.3k', '678', '0.2500 (2/3)', "Claude Code's own list-price estimate", '61.2', 'claude-code 2.1.332']]);
    // README answers of the test agents report no tokens or cost: unknown, shown as -, never 0.
    const answered = String(all.readme.filter((r) => r.agent === 'careful' && r.answer).length);
    expect(table(readme.items, 'readme-usage')!.rows[0]).toEqual(['careful', answered, answered, '-', '-', '-', '-', expect.stringMatching(/^\d+\.\d$/), '-']);
    // Imported ResearchEnvBench sessions have their wall time, no tokens or cost.
    expect(table(readiness.items, 'readiness-usage')!.rows.map((r) => r.slice(3, 7))).toEqual([['-', '-', '-', '-'], ['-', '-', '-', '-']]);
    expect(table(reportSections({ instances: all.instances, readme: [], readiness: [] })[0].items, 'agent-usage')).toBeUndefined();
  });
});

describe('phantoms confirmed by removal', () => {
  const table = (items: { kind: string; id: string }[], id: string) => items.find((i) => i.id === id) as Table | undefined;

  test('no confirmation tables where no record was confirmed', () => {
    const [gap] = reportSections({ instances: paperInstanceRecords(), readme: [], readiness: [] });
    expect(gap.items.map((i) => i.id).filter((id) => id.startsWith('confirm'))).toEqual([]);
  });

  test('per instance: the baseline, each name unneeded or needed with how it broke, bloat, the trials and their cost; beside M3, the confirmed rates', () => {
    const records = withConfirmations(paperInstanceRecords(), 3);
    const confirmed = records.filter((r) => r.confirmation);
    expect(confirmed).toHaveLength(3);
    const [gap] = reportSections({ instances: records, readme: [], readiness: [] });
    const ids = gap.items.map((i) => i.id);
    // The rates beside M3's figure (Fig. 7); the instances after the paper's tables.
    expect(ids.indexOf('confirmed-rates')).toBe(ids.indexOf('mismatch-by-language') + 1);
    expect(ids.indexOf('confirmation-instances')).toBe(ids.indexOf('frequent-hidden') + 1);
    const perInstance = table(gap.items, 'confirmation-instances')!;
    expect(perInstance.head).toEqual(['agent', 'language', 'task', 'trial', 'baseline', 'phantom_check', 'bloat_check', 'trials', 'cost s']);
    expect(perInstance.rows).toHaveLength(3);
    const first = confirmed[0]!;
    const phantoms = Object.keys(first.phantom_check!).sort();
    const row = perInstance.rows[0]!;
    expect(row.slice(0, 5)).toEqual([first.agent, first.language, first.task, '1', 'ran alike']);
    expect(row[5]!.split('; ')[0]).toBe(`${phantoms[0]} unneeded`);
    expect(row[5]!.split('; ')[1]).toBe(`${phantoms[1]} needed (build-failed: build: cannot find ${phantoms[1]})`);
    expect(row[6]).toBe(`not possible: ${first.language} cannot exclude an installed package here`);
    expect(row.slice(7)).toEqual([`${phantoms.length + 1} of 24`, (12.5 * (phantoms.length + 1)).toFixed(1)]);

    const rates = table(gap.items, 'confirmed-rates')!;
    expect(rates.head.slice(0, 7)).toEqual(['agent', 'language', 'M3 phantom', 'confirmed instances', 'phantom (trace)', 'phantom (confirmed)', 'phantom names']);
    // Agents pooled per language first, then each (agent, language); the names add up to the confirmed instances' phantoms.
    const pooled = rates.rows.filter((r) => r[0] === 'all');
    expect(pooled.reduce((n, r) => n + Number(r[3]), 0)).toBe(3);
    const counted = pooled.flatMap((r) => r[6]!.split(' / ').map(Number)).reduce((a, b) => a + b, 0);
    expect(counted).toBe(confirmed.reduce((n, r) => n + Object.keys(r.phantom_check!).length, 0));
    expect(pooled.every((r) => r.slice(8).every((c) => c === '-'))).toBe(true);
  });
});

describe('intervals as the metrics give them', () => {
  test('a rate with its sibling x_ci becomes a bar with an error bar; without one, a bar alone', () => {
    expect(rateDatum({ sr0: 0.5, sr0_ci: { low: 0.4, high: 0.6 } }, 'sr0')).toEqual({ value: 0.5, low: 0.4, high: 0.6 });
    expect(rateDatum({ sr0: 0.5 }, 'sr0')).toEqual({ value: 0.5, low: null, high: null });
    expect(intervalOf({ sr0_ci: null }, 'sr0')).toBeNull();
    expect(pctWithInterval({ f1: 0.4123, f1_ci: { low: 0.38, high: 0.445 } }, 'f1')).toBe('41.2% [38.0–44.5]');
  });
});

describe('the page', () => {
  const libraries = { vega: 'var vega = {}; // "</script>" inside a library', vegaLite: 'var vegaLite = {};' };

  test('nothing in the data or a library can close its script element early', () => {
    const html = renderReportHtml({
      title: 'a <b>title</b>', source: 's', generatedAt: 't', libraries,
      sections: [{ id: 's1', title: 'S', summary: 'x', items: [
        { kind: 'figure', id: 'f', title: 'F', caption: 'c', spec: { data: { values: [{ name: '</script><script>alert(1)</script>' }] }, mark: 'point' } },
        { kind: 'table', id: 't', title: 'T', caption: 'c', head: ['package'], rows: [['<img src=x onerror=alert(1)>']] },
      ] }],
    });
    expect(html.match(/<\/script>/g)).toHaveLength(4); // the two libraries, the spec, the runtime
    expect(html).toContain('\\u003c/script>\\u003cscript>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('<title>a &lt;b&gt;title&lt;/b&gt;</title>');
    expect(html).toContain("default-src 'none'");
  });
});

describe('records of any protocol in one file', () => {
  test('are told apart by their schema; a line of none names its line and the field', async () => {
    const all = await allProtocolRecords();
    const text = [all.readme[0], all.instances[0], all.readiness[0]].map((r) => JSON.stringify(r)).join('\n\n');
    const parsed = parseAnyRecordJsonl(text, 'mixed.jsonl');
    expect([parsed.instances.length, parsed.readme.length, parsed.readiness.length]).toEqual([1, 1, 1]);
    expect(() => parseAnyRecordJsonl(`${JSON.stringify(all.instances[0])}\n{"schema":"other/v9"}`, 'f.jsonl')).toThrow(/f\.jsonl line 2: schema: expected one of envgap\.instance\/v1/);
    const bad = { ...all.instances[0], language: 'cobol' };
    expect(() => parseAnyRecordJsonl(JSON.stringify(bad), 'f.jsonl')).toThrow(/f\.jsonl line 1: .*language/);
    expect(() => parseAnyRecordJsonl('{not json', 'f.jsonl')).toThrow(/f\.jsonl line 1: not JSON/);
  });
});
