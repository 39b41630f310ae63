import { Command, Option } from 'commander';
import * as fs from 'node:fs';
import { importCatalog } from '../catalog/importCatalog';
import { connectDocker } from '../infra/docker';
import { ensureBaseImage, ensureRuntimeImage } from '../infra/images';
import { loadSettings } from '../infra/settings';
import { LANGUAGES, type Language } from '../domain/instance';
import type { Db } from '../db/connect';
import { cleanupCommand } from './cleanup';
import { confirmStudyPhantoms } from './confirmPhantoms';
import { reresolveStudy } from './reresolve';
import { openDb } from './context';
import { importEnvgapCsvCommand } from './importCommand';
import { importHarborCommand } from './harborImportCommand';
import { importHarborGapCommand } from './harborGapImportCommand';
import { importInspectCommand } from './inspectImportCommand';
import { exportHarborCommand } from './harborExportCommand';
import { retryInstance } from './instance';
import { showInstance } from './instanceShow';
import { writeSbom } from './sbom';
import { importResearchEnvBenchCommand, importResearchEnvBenchReposCommand, readinessMetricsCommand, readinessMetricsText } from './readinessCommands';
import { readinessRecords } from '../db/readiness';
import { readmeScoreCommand, type ReadmeScoreOptions } from './readmeScore';
import { readmeMetricsTable } from './readmeMetrics';
import { readmeRecords } from '../db/readme';
import { readmeStudyMetrics } from '../metrics/readmeStudy';
import { metricsCommand } from './metricsCommand';
import { parseManifestFile } from './parseManifest';
import { reportCommand } from './report';
import { studyRecordsWithUsage } from './gapUsage';
import { say } from './say';
import { runStudy } from './study';
import { cancelStudy, exportStudy, retryStudyErrors, signalStudy, studyStatus } from './studyControl';
import { runWorker } from './worker';

const program = new Command('envgap')
  .description('Measures the environment gap of AI coding agents: declared (D1), installed (D2) and traced (D3) dependencies.')
  .showHelpAfterError()
  // `export harbor ... --out DIR`: the options after a subcommand are its own, not `export`'s.
  .enablePositionalOptions();

const study = program.command('study').description('run and inspect studies (Temporal workflows)');
study
  .command('run')
  .argument('<file>', 'study YAML file')
  .option('--no-worker', 'do not start an in-process worker when none polls')
  .description('start a study (or follow it if running, or report it if finished) and print its table')
  .action((file: string, o: { worker: boolean }) => runStudy(file, o));
study.command('status').argument('<name>').description('progress of a study').action(studyStatus);
study.command('cancel').argument('<name>').description('cancel a running study').action(cancelStudy);
study.command('pause').argument('<name>').description('pause a running study: running instances finish, no new one starts').action((name: string) => signalStudy(name, 'pause'));
study.command('resume').argument('<name>').description('resume a paused study').action((name: string) => signalStudy(name, 'resume'));
study.command('retry-errors').argument('<name>').description("run a study's error instances again (in the study while it runs, else each on its own)").action(retryStudyErrors);
study
  .command('confirm-phantoms')
  .argument('<name>')
  .option('--max-trials <n>', "removal trials per instance, the unchanged project's runs included (default: the study's confirm_max_trials, else 24)")
  .option('--again', 'confirm again instances that carry a confirmation already', false)
  .description("confirm a finished study's phantoms (declared, not traced) and bloat by removing them and running again (docs/confirmation.md)")
  .action((name: string, o: { maxTrials?: string; again: boolean }) => confirmStudyPhantoms(name, o));
study
  .command('re-resolve')
  .argument('<name>')
  .option('--format <format>', 'table or json', 'table')
  .option('--again', "run today's re-resolution again (otherwise it is reported as it ended)", false)
  .description("install a finished study's final manifests again today and report which stopped installing and which D2 sets changed (docs/resolution.md)")
  .action((name: string, o: { format: string; again: boolean }) => reresolveStudy(name, o));

const instance = program.command('instance').description('work on single instances');
instance
  .command('retry')
  .argument('<id>', '<study>/<agent>/<language>/<task>/<trial>')
  .description('run one instance again; its record is replaced')
  .action(retryInstance);
instance
  .command('show')
  .argument('<id>', '<study>/<agent>/<language>/<task>/<trial>')
  .option('--log', "each iteration's whole run log", false)
  .description("each iteration: the entry chosen and why, how it was run, its outcome and class, the end of the failing step's output")
  .action((id: string, o: { log: boolean }) => showInstance(id, o));

program
  .command('worker')
  .addOption(new Option('--queue <queue>', 'task queue: cpu (every workflow, the container work) or gpu (the readiness GPU stages; checks nvidia-smi, and that a container given GPUs by a device request sees them)').choices(['cpu', 'gpu']).default('cpu'))
  .description('run a worker that polls a task queue')
  .action((o: { queue: 'cpu' | 'gpu' }) => runWorker(o.queue));

program
  .command('cleanup')
  .option('--study <name>', "only this study's containers")
  .description('remove the sandboxes (label envgap.instance; envgap.readiness from older versions) and frozen readiness images whose instance workflow is not running')
  .action((o: { study?: string }) => cleanupCommand(o));

program
  .command('setup')
  .addOption(new Option('--languages <list>', 'runtime images to prepare, comma-separated').default(LANGUAGES.join(',')))
  .option('--base-only', 'prepare the base image only, and print its tag last (deploy/compose.sh builds on it)')
  .description('prepare the container images (base image and runtime images), cached by recipe')
  .action(async (o: { languages: string; baseOnly?: boolean }) => {
    const docker = connectDocker();
    if (o.baseOnly) {
      const tag = await ensureBaseImage(docker, loadSettings(), (line) => say(`[image base] ${line}`));
      console.log(tag);
      return;
    }
    const languages = o.languages.split(',');
    for (const l of languages) if (!(LANGUAGES as readonly string[]).includes(l)) throw new Error(`--languages: unknown language "${l}"`);
    // In parallel: the base image is built once and joined by every language that needs it.
    await Promise.all(
      languages.map(async (l) => {
        const tag = await ensureRuntimeImage(docker, loadSettings(), l as Language, (line) => say(`[image ${l}] ${line}`));
        say(`image for ${l}: ${tag}`);
      }),
    );
  });

program
  .command('parse-manifest')
  .argument('<file>')
  .addOption(new Option('--ecosystem <name>').choices([...LANGUAGES]).makeOptionMandatory())
  .addOption(new Option('--format <format>').choices(['json']).default('json'))
  .description('print the declared dependencies (D1) of a manifest')
  .action((file: string, o: { ecosystem: string }) => {
    process.stdout.write(JSON.stringify(parseManifestFile(file, o.ecosystem), null, 2) + '\n');
  });

program
  .command('sbom')
  .argument('<instance>', 'the instance id, <study>/<agent>/<language>/<task>/<trial>')
  .option('--out <file>', 'write to a file instead of stdout')
  .description('write the CycloneDX 1.6 SBOM of an instance (docs/sbom.md)')
  .action(writeSbom);

const exportCommand = program
  .command('export')
  .argument('<study>')
  .option('--out <file>', 'write to a file instead of stdout')
  .description('write the records of a study (any protocol) as JSON lines; `export harbor` writes Harbor tasks')
  .enablePositionalOptions()
  .action(exportStudy);
exportCommand
  .command('harbor')
  .argument('<study-file>', 'a readiness study file (protocol: readiness)')
  .requiredOption('--out <dir>', 'the folder to write one Harbor task folder per repository into')
  .option('--repo <id>', 'only this repository (repeatable)', (v: string, acc: string[]) => [...acc, v], [] as string[])
  .description("each repository of a readiness study as a Harbor task whose verifier runs envgap's checks (docs/harbor.md)")
  .action((file: string, o: { out: string; repo: string[] }) => {
    exportHarborCommand(file, o);
  });

program
  .command('metrics')
  .option('--input <file>', 'instance records as JSON lines (envgap export, envgap import)')
  .option('--study <name>', 'a study in the database')
  .addOption(new Option('--format <format>').choices(['json', 'table', 'csv']).default('table'))
  .option('--out <dir>', 'folder for --format csv', 'metrics-csv')
  .option('--count-environment', 'keep failures classed Environment (a service, host, credentials or download the machine cannot give) in the success rates', false)
  .option('--exclude-test-scope', 'read D1 without its test-scoped names (declared_test: Maven test scope, never traced in a run)', false)
  .option('--exclude-human-repairs', 'a success reached through an iteration a person wrote (human_iterations) counts as a failure', false)
  .option('--stdlib-from-runs', "M7's eligibility from the runs alone (a task succeeded somewhere with an empty manifest), not the catalog's a-priori annotation", false)
  .option('--noise', "the instrument's noise floor instead: per (agent, language, task), how often trials of the same agent output (a replay agent with trial:, a static agent) disagreed on success, D1, D2, D3", false)
  .description('environment-gap metrics M1-M8 over instance records, and per agent and language the tokens, cost, agent time and calls')
  .action(async (o: { input?: string; study?: string; format: 'json' | 'table' | 'csv'; out: string; countEnvironment: boolean; excludeTestScope: boolean; excludeHumanRepairs: boolean; stdlibFromRuns: boolean; noise: boolean }) => {
    const opened: Db[] = [];
    try {
      await metricsCommand(o, async (name) => {
        opened.push(await openDb(loadSettings()));
        return studyRecordsWithUsage(opened[0], name);
      });
    } finally {
      for (const db of opened) await db.destroy();
    }
  });

program
  .command('report')
  .argument('[study]', 'a study in the results database (all its protocols)')
  .option('--input <file>', 'records as JSON lines, of any protocol (envgap export, envgap import)')
  .option('--out <file>', 'the HTML file to write', 'report.html')
  .option('--ui <url>', 'the Temporal UI address, to link each instance to its workflow')
  .description("a self-contained HTML report of the records: the paper's figures and tables, error bars, links to the Temporal UI")
  .action((name: string | undefined, o: { input?: string; out: string; ui?: string }) => {
    const settings = loadSettings();
    return reportCommand(name, o, settings, () => openDb(settings));
  });

const importGroup = program.command('import').description('convert published data sets into instance records');
importGroup
  .command('envgap-csv')
  .argument('<dir>', 'a folder laid out like shared/data/envgap (results/*.csv, prompts/prompt_overview.csv)')
  .requiredOption('--out <file>', 'JSON lines file to write')
  .addOption(new Option('--lists <reading>', 'how dependency list cells are split').choices(['as-published', 'whitespace-aware']).default('as-published'))
  .action((dir: string, o: { out: string; lists: 'as-published' | 'whitespace-aware' }) => {
    const r = importEnvgapCsvCommand(dir, o.out, { lists: o.lists });
    say(`import: ${r.records} instance records written to ${o.out}`);
  });

importGroup
  .command('researchenvbench')
  .argument('<run-dir>', "an upstream ResearchEnvBench run directory (jobs/<job>/job_summary.json, benchmark/build_output/<stage>/results.json)")
  .requiredOption('--out <file>', 'JSON lines file of readiness records to write')
  .option('--c0-totals <file>', "per-repo C0 totals in upstream's format (default: upstream's own, shipped in data/researchenvbench)")
  .option('--categories <file>', "the repositories' test categories CSV, when the run directory has no snapshot of it")
  .option('--study <name>', "the study name of the records (default: the jobs' run_id)")
  .action((dir: string, o: { out: string; c0Totals?: string; categories?: string; study?: string }) => {
    importResearchEnvBenchCommand(dir, o);
  });
importGroup
  .command('researchenvbench-repos')
  .argument('<csv-or-dir>', "upstream's scripts_repos_test_categories.csv, or a checkout of upstream's repository (each stage's command from scripts/<slug>/benchmark_scripts/)")
  .requiredOption('--out <file>', 'readiness study file (YAML) to write')
  .option('--name <name>', 'the study name')
  .action((csv: string, o: { out: string; name?: string }) => {
    importResearchEnvBenchReposCommand(csv, o);
  });
importGroup
  .command('harbor')
  .argument('<dirs...>', 'Harbor task folders, folders of tasks, job folders (config.json and one folder per trial) or folders of jobs')
  .requiredOption('--out <file>', 'readiness study file (YAML) to write; the recordings go to <file without .yaml>.recordings/ beside it')
  .option('--tasks <dir>', "a folder searched for the trials' tasks (repeatable)", (v: string, acc: string[]) => [...acc, v], [] as string[])
  .option('--name <name>', 'the study name (default: the job folder\'s name)')
  .option('--oracle', "also replay each task's solution/solve.sh as an agent named oracle (the default where no trial is given)")
  .addOption(new Option('--protocol <protocol>', "readiness: tasks as repositories, trials as sessions; gap: the trials' final workspaces as projects, measured D1/D2/D3").choices(['readiness', 'gap']).default('readiness'))
  .description("Harbor tasks as readiness repositories and Harbor trials as replay agents' sessions, or their final workspaces as a gap study (docs/harbor.md)")
  .action((dirs: string[], o: { out: string; tasks: string[]; name?: string; oracle?: boolean; protocol: 'readiness' | 'gap' }) => {
    if (o.protocol === 'gap') {
      if (o.oracle) throw new Error('import harbor: --oracle is for --protocol readiness (a solution is a session, not a project)');
      importHarborGapCommand(dirs, o);
    } else importHarborCommand(dirs, o);
  });
importGroup
  .command('inspect')
  .argument('<logs...>', 'Inspect AI eval logs (.eval, or .json as `inspect log convert --to json` writes)')
  .requiredOption('--out <file>', 'gap study file (YAML) to write; the projects go to <file without .yaml>.recordings/ beside it')
  .option('--name <name>', "the study name (default: the log's task name)")
  .option('--workdir <dir>', "the sandbox's working directory, where relative paths are and the project's root is looked for (default: found from the files written)")
  .description("Inspect AI samples whose logs carry the files the agent wrote, as projects of replay agents in a gap study (docs/inspect.md)")
  .action((logs: string[], o: { out: string; name?: string; workdir?: string }) => {
    importInspectCommand(logs, o);
  });

program
  .command('readiness')
  .description('the research readiness pyramid (docs/readiness.md)')
  .command('metrics')
  .option('--input <file>', 'readiness records as JSON lines (envgap import researchenvbench)')
  .option('--study <name>', "a readiness study's records, from the results database")
  .addOption(new Option('--format <format>', 'output format').choices(['json', 'table', 'csv']).default('table'))
  .addOption(new Option('--mode <mode>', "envgap's scoring, or upstream M5's with its quirks").choices(['envgap', 'upstream']).default('envgap'))
  .option('--c0-totals <file>', "per-repo C0 totals in upstream's format")
  .description('C0-C5 per agent: missing imports, stage successes over applicable jobs, hallucinations, time and size')
  .action(async (o: { input?: string; study?: string; format: 'json' | 'table' | 'csv'; mode: 'envgap' | 'upstream'; c0Totals?: string }) => {
    if ((o.input === undefined) === (o.study === undefined)) throw new Error('readiness metrics: give one of --input FILE and --study NAME');
    if (o.input !== undefined) return readinessMetricsCommand(o);
    const db = await openDb(loadSettings());
    try {
      const records = await readinessRecords(db, o.study!);
      if (records.length === 0) throw new Error(`readiness metrics: study "${o.study}" has no readiness records in the results database`);
      process.stdout.write(readinessMetricsText(records, o));
    } finally {
      await db.destroy();
    }
  });

// README diagnosis (docs/readme.md): `readme score` (a folder of predictions) and `readme metrics` (a study).
const readme = program.command('readme').description('README diagnosis, EnConda-Bench (docs/readme.md)');
readme
  .command('score')
  .requiredOption('--predictions <dir>', "answers in EnConda-Bench's layout: results/<repo>_<instance>/<instance>_errors.json")
  .requiredOption('--gold <dir>', 'the data set (shared/data/enconda, or its Enconda-bench folder)')
  .addOption(new Option('--judge <judge>', 'who judges descriptions and fixes similar').choices(['deterministic', 'openai']).default('deterministic'))
  .option('--judge-model <model>', 'openai judge: the model (default gpt-4o-mini, as upstream)')
  .option('--judge-base-url <url>', 'openai judge: an OpenAI-compatible endpoint (default https://api.openai.com/v1)')
  .option('--judge-api-key-env <name>', 'openai judge: the NAME of the environment variable holding the key (default OPENAI_API_KEY)')
  .option('--instances <file>', 'score only the instances named in this file, one a line')
  .option('--only-answered', 'score only the READMEs with a prediction (upstream); default: no answer scores as zero predictions')
  .addOption(new Option('--format <format>', 'output format').choices(['json', 'table']).default('table'))
  .description('type P/R/F1 (overall and per type), description and fix accuracy of README diagnoses')
  .action((o: ReadmeScoreOptions & { format: 'json' | 'table' }) => readmeScoreCommand(o));
readme
  .command('metrics')
  .requiredOption('--study <name>', "a README study's records, from the results database")
  .addOption(new Option('--format <format>', 'output format').choices(['json', 'table']).default('table'))
  .description("a study's diagnosis scores per agent (type P/R/F1, per type, description and fix accuracy, its judge) and Pass@1")
  .action(async (o: { study: string; format: 'json' | 'table' }) => {
    const db = await openDb(loadSettings());
    try {
      const records = await readmeRecords(db, o.study);
      if (records.length === 0) throw new Error(`readme metrics: study "${o.study}" has no README records in the results database`);
      process.stdout.write(o.format === 'json' ? `${JSON.stringify(readmeStudyMetrics(records), null, 2)}\n` : readmeMetricsTable(records));
    } finally {
      await db.destroy();
    }
  });

program
  .command('catalog')
  .description('the task catalog')
  .command('import')
  .argument('<dir>', 'a folder laid out like shared/data/envgap (prompts/prompt_overview.csv, prompts/<language>/p_NN.md)')
  .option('--out <dir>', 'catalog folder to write', 'catalog')
  .action((dir: string, o: { out: string }) => {
    const r = importCatalog(dir, o.out);
    say(`catalog: ${r.tasks} tasks written to ${o.out}`);
  });

program.parseAsync(process.argv).then(
  () => process.exit(0),
  (err: Error) => {
    process.stderr.write(`envgap: ${err.message}\n`);
    process.exit(1);
  },
);
