import type { ProtocolRecords } from '../importers/anyRecordJsonl';
import type { ReportSection } from './figure';
import { gapSection, type GapReportOptions } from './gapFigures';
import { renderReportHtml } from './html';
import { readinessSection } from './readinessFigures';
import { readmeSection } from './readmeFigures';

export interface ReportOptions extends GapReportOptions {
  title: string;
  source: string;
  generatedAt: string;
  libraries: { vega: string; vegaLite: string };
}

/** A section per protocol that has records, in the order of the protocols. */
export function reportSections(records: ProtocolRecords, o: GapReportOptions = {}): ReportSection[] {
  return [
    ...(records.instances.length > 0 ? [gapSection(records.instances, o)] : []),
    ...(records.readme.length > 0 ? [readmeSection(records.readme)] : []),
    ...(records.readiness.length > 0 ? [readinessSection(records.readiness)] : []),
  ];
}

/** The HTML report of the records: one self-contained page. */
export function buildReport(records: ProtocolRecords, o: ReportOptions): string {
  const sections = reportSections(records, o);
  if (sections.length === 0) throw new Error(`report: ${o.source} holds no records`);
  return renderReportHtml({ title: o.title, source: o.source, generatedAt: o.generatedAt, sections, libraries: o.libraries });
}

export type { Figure, ReportItem, ReportSection, Table } from './figure';
