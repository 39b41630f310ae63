import * as fs from 'node:fs';
import type { Db } from '../db/connect';
import { readinessRecords } from '../db/readiness';
import { readmeRecords } from '../db/readme';
import { validateInstanceRecords } from '../importers/instanceJsonl';
import { parseAnyRecordJsonl, type ProtocolRecords } from '../importers/anyRecordJsonl';
import { DEV_SERVER_UI } from '../infra/temporal';
import type { Settings } from '../infra/settings';
import { buildReport } from '../report';
import { reportLibraries } from '../report/libraries';
import { keepUsage, studyRecordsWithUsage, usageOfJsonl, withUsage } from './gapUsage';
import { say } from './say';

export interface ReportCommandOptions {
  input?: string;
  out: string;
  /** The Temporal UI's address, for links to each instance's workflow. */
  ui?: string;
}

/** A study's records of every protocol, from the results database. */
export async function studyProtocolRecords(db: Db, name: string): Promise<ProtocolRecords> {
  const [instances, readiness, readme] = await Promise.all([studyRecordsWithUsage(db, name), readinessRecords(db, name), readmeRecords(db, name)]);
  return { instances: keepUsage(validateInstanceRecords(instances, `study ${name}`), instances), readiness, readme };
}

/**
 * The UI address to link instances to: the one given; for a study from the database, TEMPORAL_UI_URL
 * or, on the local dev server, its UI. Records read from a file link nowhere unless told: they may
 * come from another deployment, or from a paper.
 */
function uiAddress(o: ReportCommandOptions, settings: Settings, fromStudy: boolean): string | null {
  if (o.ui) return o.ui.replace(/\/+$/, '');
  if (!fromStudy) return null;
  return process.env.TEMPORAL_UI_URL?.replace(/\/+$/, '') ?? (settings.temporalAddress ? null : DEV_SERVER_UI);
}

/** `envgap report NAME | --input F.jsonl --out report.html`: the self-contained HTML report. */
export async function reportCommand(name: string | undefined, o: ReportCommandOptions, settings: Settings, openDb: () => Promise<Db>): Promise<void> {
  if ((name === undefined) === (o.input === undefined)) throw new Error('report: give a study NAME or --input FILE, not both');
  let records: ProtocolRecords;
  let source: string;
  if (o.input !== undefined) {
    const text = fs.readFileSync(o.input, 'utf8');
    records = parseAnyRecordJsonl(text, o.input);
    records.instances = withUsage(records.instances, usageOfJsonl(text, o.input));
    source = `records from ${o.input}`;
  } else {
    const db = await openDb();
    try {
      records = await studyProtocolRecords(db, name!);
    } finally {
      await db.destroy();
    }
    source = `study ${name}`;
  }
  const ui = uiAddress(o, settings, name !== undefined);
  const html = buildReport(records, {
    title: name ? `envgap report: ${name}` : 'envgap report',
    source,
    generatedAt: new Date().toISOString(),
    libraries: reportLibraries(),
    ...(ui ? { instanceUrl: (id: string) => `${ui}/namespaces/${encodeURIComponent(settings.temporalNamespace)}/workflows/${encodeURIComponent(id)}` } : {}),
  });
  fs.writeFileSync(o.out, html);
  say(`report: ${records.instances.length} instance, ${records.readme.length} README and ${records.readiness.length} readiness records drawn to ${o.out} (${(html.length / 1024).toFixed(0)} KiB)`);
}
