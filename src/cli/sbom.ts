import * as fs from 'node:fs';
import { BlobStore } from '../db/blobs';
import type { Db } from '../db/connect';
import { findInstanceRecord } from '../db/instances';
import { instanceIterations } from '../db/iterations';
import type { ProjectFiles } from '../domain/files';
import { InstanceRecord, parseInstanceId } from '../domain/instance';
import { parseAptTxt } from '../ecosystems/apt';
import { traceEvidence } from '../ecosystems/evidence';
import { installedComponents } from '../ecosystems/installedComponents';
import { loadSettings } from '../infra/settings';
import { buildCycloneDx } from '../sbom/cyclonedx';
import { openDb } from './context';
import { say } from './say';

/**
 * The CycloneDX BOM of one instance from the results database (docs/sbom.md): its record, and the
 * final execution's artefacts (the last iteration that executed) for versions and evidence.
 */
export async function sbomOfInstance(db: Db, id: string): Promise<Record<string, unknown>> {
  parseInstanceId(id);
  const stored = await findInstanceRecord(db, id);
  if (!stored) throw new Error(`instance ${id} has no record in the results database`);
  const parsed = InstanceRecord.safeParse(stored);
  if (!parsed.success) throw new Error(`instance ${id}: its stored record does not parse: ${parsed.error.message}`);
  const record = parsed.data;
  const blobs = new BlobStore(db);
  const final = (await instanceIterations(db, id)).filter((r) => r.execution !== null).pop();
  const texts: Record<string, string | null> = {};
  for (const [name, hash] of Object.entries(final?.execution?.artefacts ?? {})) if (name !== 'log') texts[name] = hash ? await blobs.getText(hash) : null;
  const files = final?.filesHash ? await blobs.getJson<ProjectFiles>(final.filesHash) : {};
  const aptPackages = typeof files['apt.txt'] === 'string' ? safeApt(files['apt.txt']) : [];
  const components = record.installed && final ? installedComponents(record.language, texts, record.installed) : null;
  const evidence = final ? traceEvidence(record.language, texts, record.traced ?? [], record.traced_build ?? []) : { run: new Map(), build: new Map() };
  return buildCycloneDx({ record, components, evidence, aptPackages });
}

function safeApt(text: string): string[] {
  try {
    return parseAptTxt(text, { fileName: 'apt.txt' });
  } catch {
    return [];
  }
}

/** `envgap sbom INSTANCE_ID [--out F.json]`. */
export async function writeSbom(id: string, o: { out?: string }): Promise<void> {
  const db = await openDb(loadSettings());
  try {
    const text = JSON.stringify(await sbomOfInstance(db, id), null, 2) + '\n';
    if (o.out) {
      fs.writeFileSync(o.out, text);
      say(`sbom: CycloneDX 1.6 written to ${o.out}`);
    } else process.stdout.write(text);
  } finally {
    await db.destroy();
  }
}
