const HEADER =
  'prompt_id,llm_name,language,docker_image,project_path,script_file,manifest_file,claimed_deps,claimed_count,' +
  'transitive_deps,transitive_count,initial_execution,initial_error_type,initial_error_message,fix_applied,' +
  'fix_description,final_execution,final_error_type,final_error_message,dep_gap,notes,sciunit_size,sciunit_repeat,runtime_deps';

export interface FixtureRun {
  task: string;
  claimed?: string;
  claimedCount?: string;
  transitive?: string;
  transitiveCount?: string;
  first?: string;
  errorType?: string;
  final?: string;
  runtime?: string;
}

const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** A per-run CSV in the layout of the EnvGap data set's results/*_reproducibility_analysis.csv. */
export function runsCsv(runs: FixtureRun[]): string {
  const rows = runs.map((r) =>
    [
      r.task, 'x', 'x', 'img', 'path', 'main', 'manifest', r.claimed ?? 'None', r.claimedCount ?? '0',
      r.transitive ?? 'None', r.transitiveCount ?? '0', r.first ?? 'True', r.errorType ?? 'None', '', 'None',
      '', r.final ?? 'True', 'None', '', '0', '', '1 MB', 'True', r.runtime ?? 'none',
    ]
      .map(quote)
      .join(','),
  );
  return [HEADER, ...rows].join('\n') + '\n';
}

export const OVERVIEW =
  'prompt_id,task_title,category,complexity,dependency_relevance,description\n' +
  'p_01,CSV Statistical Analyzer,Data Processing,Medium,High,"Reads CSV, writes JSON"\n' +
  'p_02,AES-256 File Encryption,Cryptography,High,High,Encrypts files\n';
