/** Where the agent must write its report (ResearchEnvBench's path, so recorded sessions replay unchanged). */
export const REPORT_PATH = '/opt/scimlopsbench/report.json';

/** The repository's place in the agent's container (ResearchEnvBench passes it as REPO_ROOT). */
export const REPO_ROOT = '/repo';
