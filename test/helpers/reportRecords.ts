import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ReadmeRecord } from '../../src/domain/readme';
import type { InstanceRecord } from '../../src/domain/instance';
import { importEnvgapCsv } from '../../src/importers/envgapCsv';
import { readEnvgapDir } from '../../src/importers/readEnvgapDir';
import { importResearchEnvBenchRun } from '../../src/importers/researchenvbench';
import type { ProtocolRecords } from '../../src/importers/anyRecordJsonl';
import { deterministicJudge, scoreReadme } from '../../src/metrics/readme';
import { readGold } from '../../src/readme/dataset';
import { envgapData } from './data';
import { CATEGORIES, JOBS, TOTALS } from '../unit/readiness/scenario';
import { writeRun } from '../unit/readiness/upstreamRun';
import { encondaDir, SMALL_PREDICTIONS } from '../unit/readme/realInstances';

/** The paper's published per-run results, as `envgap import envgap-csv` makes them records. */
export function paperInstanceRecords(): InstanceRecord[] {
  return importEnvgapCsv(readEnvgapDir(envgapData()));
}

/**
 * The records with a phantom confirmation added to the first `n` successful primary instances with two
 * phantoms or more, as `envgap study confirm-phantoms` stores it: the phantoms alternately unneeded and needed (a
 * build failure), C++ with its bloat not possible, every one with the unchanged project reproduced.
 */
export function withConfirmations(records: readonly InstanceRecord[], n: number): InstanceRecord[] {
  let left = n;
  return records.map((r) => {
    const traced = new Set(r.traced ?? []);
    const phantoms = (r.declared ?? []).filter((d) => !traced.has(d)).sort();
    if (left === 0 || r.trial !== 1 || r.status !== 'success' || phantoms.length < 2) return r;
    left--;
    const verdict = (i: number) => (i % 2 === 0 ? 'unneeded' : 'needed') as 'unneeded' | 'needed';
    const needed = phantoms.filter((_, i) => verdict(i) === 'needed');
    return {
      ...r,
      phantom_check: Object.fromEntries(phantoms.map((p, i) => [p, verdict(i)])),
      confirmation: {
        baseline: { reproduced: true },
        trials: phantoms.length + 1,
        max_trials: 24,
        output_compared: true,
        duration_ms: 12_500 * (phantoms.length + 1),
        phantom: { broke: Object.fromEntries(needed.map((p) => [p, { how: 'build-failed' as const, excerpt: `build: cannot find ${p}\nerror: 1` }])), untried: [], not_in_final_manifest: [] },
        bloat: { unsupported: `${r.language} cannot exclude an installed package here` },
      },
    };
  });
}

/** README records of two agents on real EnConda-Bench instances, scored by the deterministic judge; one agent's scripts pass more often. */
export async function readmeRecords(): Promise<ReadmeRecord[]> {
  const records: ReadmeRecord[] = [];
  for (const [a, agent] of ['careful', 'hasty'].entries()) {
    for (const [i, [ref, predicted]] of SMALL_PREDICTIONS.entries()) {
      const gold = readGold(encondaDir(), ref);
      const score = await scoreReadme(ref.name, gold, a === 0 ? predicted : predicted?.slice(0, 1) ?? null, deterministicJudge);
      records.push({
        schema: 'envgap.readme/v1', study: 'report-test', instance_id: `report-test/${agent}/${ref.name}/1`, agent, agent_kind: 'replay',
        instance: ref.name, repo_folder: ref.repoFolder, repository: ref.repo, trial: 1, status: 'completed',
        gold: { errors: gold.errors.length, types: [...new Set(gold.errors.map((e) => e.error_type))], level: null },
        answer: predicted === null ? null : { status: 'answered', problem: null, detected_errors: [...predicted], setup_script_hash: null, answer_hash: null, duration_s: 1, tokens_in: null, tokens_out: null, cost_usd: null },
        score: score as unknown as Record<string, unknown>,
        pass: { status: i <= (a === 0 ? 3 : 1) ? 'pass' : 'fail', reason: null, exit_code: 0, timed_out: false, missing_imports: 0, missing: [], duration_s: 1, log_excerpt: null },
        error: null,
      });
    }
  }
  return records;
}

/** Records of all three protocols: the paper's instances, README diagnoses and an imported ResearchEnvBench run. */
export async function allProtocolRecords(): Promise<ProtocolRecords> {
  const runDir = writeRun(JOBS, CATEGORIES);
  try {
    return { instances: paperInstanceRecords(), readme: await readmeRecords(), readiness: importResearchEnvBenchRun(runDir, { c0Totals: TOTALS }) };
  } finally {
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}

/** The records as one JSON-lines file, as `envgap export` and the importers write them. */
export function writeRecordsJsonl(records: ProtocolRecords): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-report-')), 'records.jsonl');
  fs.writeFileSync(file, [...records.instances, ...records.readme, ...records.readiness].map((r) => JSON.stringify(r)).join('\n') + '\n');
  return file;
}
