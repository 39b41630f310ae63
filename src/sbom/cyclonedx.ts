import { createHash } from 'node:crypto';
import { PackageURL } from 'packageurl-js';
import type { InstanceRecord } from '../domain/instance';
import { instanceId } from '../domain/instance';
import type { InstalledComponent } from '../ecosystems/installedComponents';
import { ECOSYSTEMS } from '../ecosystems/registry';
import type { TraceEvidence } from '../ecosystems/evidence';

/** At most this many occurrences a component; the count of all is its `envgap:occurrences_total` (docs/sbom.md). */
export const MAX_OCCURRENCES = 200;

export interface SbomInput {
  record: InstanceRecord;
  /** D2 with versions, from the final execution's artefacts; null where they are gone (then the record's installed_versions). */
  components: InstalledComponent[] | null;
  evidence: TraceEvidence;
  /** The Debian packages of apt.txt among D1 (so that they become deb components, not "never installed" names). */
  aptPackages: readonly string[];
}

type Json = Record<string, unknown>;

/**
 * The CycloneDX 1.6 BOM of one instance (docs/sbom.md): one component per installed package (D2) at
 * its version, with its package URL; the files the run opened for it as `evidence.occurrences` (and
 * the build's, told apart by their `additionalContext` and the `envgap:evidence` property); declared
 * (D1) names never traced, and never installed, marked by properties. Pure: the same input gives the
 * same BOM, its serial number included.
 */
export function buildCycloneDx(input: SbomInput): Json {
  const { record, evidence } = input;
  const declared = new Set(record.declared ?? []);
  const traced = new Set(record.traced ?? []);
  const tracedBuild = new Set(record.traced_build ?? []);
  const aggregated = new Set(record.traced_aggregated ?? []);
  const apt = new Set(input.aptPackages);
  const components: Json[] = [];
  const refs = new Set<string>();
  const seenNames = new Set<string>();

  const add = (c: InstalledComponent, layer: string, extra: Array<[string, string]> = []) => {
    seenNames.add(c.name);
    const purl = purlOf(c);
    let ref = purl;
    for (let i = 2; refs.has(ref); i++) ref = `${purl}#${i}`;
    refs.add(ref);
    const run = evidence.run.get(c.name) ?? [];
    const build = evidence.build.get(c.name) ?? [];
    const occurrences = [
      ...run.map((location) => ({ location, additionalContext: 'opened by the run (D3)' })),
      ...build.map((location) => ({ location, additionalContext: 'opened by the build (D3-build)' })),
    ];
    const kinds = [traced.has(c.name) ? 'run' : null, tracedBuild.has(c.name) ? 'build' : null].filter((k): k is string => k !== null);
    const properties: Array<[string, string]> = [
      ['envgap:layer', layer],
      ['envgap:declared', String(declared.has(c.name))],
      ['envgap:traced', String(traced.has(c.name))],
      ...(kinds.length > 0 ? [['envgap:evidence', kinds.join('+')] as [string, string]] : []),
      ...(aggregated.has(c.name) ? [['envgap:traced_through', 'what it brings: it has no class of its own (traced_aggregated)'] as [string, string]] : []),
      ...(record.traced === null ? [['envgap:traced_unknown', 'the run did not succeed: nothing was traced'] as [string, string]] : []),
      ...(occurrences.length > MAX_OCCURRENCES ? [['envgap:occurrences_total', String(occurrences.length)] as [string, string]] : []),
      ...extra,
    ];
    components.push({
      type: 'library',
      'bom-ref': ref,
      name: displayName(c),
      ...(c.namespace && c.purlType === 'maven' ? { group: c.namespace } : {}),
      ...(c.version !== null ? { version: c.version } : {}),
      purl,
      ...(occurrences.length > 0 ? { evidence: { occurrences: occurrences.slice(0, MAX_OCCURRENCES) } } : {}),
      properties: properties.map(([name, value]) => ({ name, value })),
    });
  };

  for (const c of componentsOf(input)) add(apt.has(c.name) && c.purlType === 'generic' ? { ...c, purlType: 'deb' } : c, 'installed');
  // C++ runs: the Debian packages that owned the shared objects the run loaded.
  for (const name of record.traced_debian_packages ?? []) {
    if (!seenNames.has(name)) add({ name, version: null, purlType: 'deb' }, 'traced_debian_package');
  }
  // Declared names that no installed component answers: apt.txt packages (installed by apt), else never installed.
  for (const name of [...declared].sort()) {
    if (seenNames.has(name)) continue;
    const isApt = apt.has(name);
    const c: InstalledComponent = isApt ? { name, version: null, purlType: 'deb' } : { name, version: null, purlType: purlTypeOf(record.language) };
    add(c, isApt ? 'declared_apt' : 'declared', [['envgap:installed', isApt ? 'apt' : record.installed === null ? 'unknown' : 'false']]);
  }

  const id = instanceId(record);
  const p = record.provenance;
  return {
    $schema: 'http://cyclonedx.org/schema/bom-1.6.schema.json',
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    serialNumber: serialOf(id, p?.recorded_at ?? ''),
    version: 1,
    metadata: {
      ...(p ? { timestamp: p.recorded_at } : {}),
      tools: { components: [{ type: 'application', name: 'envgap', ...(p ? { version: p.envgap.version } : {}) }] },
      component: { type: 'application', 'bom-ref': `envgap:instance:${id}`, name: id },
      properties: metadataProperties(record).map(([name, value]) => ({ name, value })),
    },
    components,
  };
}

/** The installed components: from the artefacts, else from the record's installed_versions, else the bare D2 names. */
function componentsOf({ record, components }: SbomInput): InstalledComponent[] {
  if (components) return components;
  const type = purlTypeOf(record.language);
  const versions = record.installed_versions ?? {};
  return (record.installed ?? []).map((name) => {
    const scoped = /^@([^/]+)\/(.+)$/.exec(name);
    // Two npm versions share one entry, joined by ", ": each is a component.
    const each = (versions[name] ?? null)?.split(', ') ?? [null];
    return each.map((version) => ({ name, version, ...(scoped && type === 'npm' ? { namespace: scoped[1] } : {}), purlType: type }));
  }).flat();
}

function purlTypeOf(language: InstanceRecord['language']): InstalledComponent['purlType'] {
  return ECOSYSTEMS[language].purlType;
}

function displayName(c: InstalledComponent): string {
  return c.purlType === 'npm' && c.namespace ? c.name.slice(c.namespace.length + 2) : c.name;
}

/** The package URL: pkg:pypi/six@1.16.0, pkg:npm/%40scope/name@v, pkg:maven/group/artifact@v, pkg:deb/debian/name, pkg:generic/name@v. */
export function purlOf(c: InstalledComponent): string {
  const version = c.version ?? undefined;
  switch (c.purlType) {
    case 'npm':
      return new PackageURL('npm', c.namespace ? `@${c.namespace}` : undefined, displayName(c), version).toString();
    case 'maven':
      return new PackageURL('maven', c.namespace, c.name, version).toString();
    case 'deb':
      return new PackageURL('deb', 'debian', c.name, version).toString();
    default:
      return new PackageURL(c.purlType, undefined, c.name, version).toString();
  }
}

function metadataProperties(record: InstanceRecord): Array<[string, string]> {
  const p = record.provenance;
  const out: Array<[string, string]> = [
    ['envgap:status', record.status],
    ['envgap:language', record.language],
  ];
  if (!p) return out;
  out.push(['envgap:image', p.image.tag], ['envgap:recipe_hash', p.image.recipe_hash], ['envgap:version', p.envgap.version], ['envgap:worker', p.worker]);
  if (p.image.id) out.push(['envgap:image_id', p.image.id]);
  if (p.envgap.commit) out.push(['envgap:commit', p.envgap.commit]);
  if (p.catalog_hash) out.push(['envgap:catalog_hash', p.catalog_hash]);
  for (const [tool, version] of Object.entries(p.tool_versions).sort()) out.push([`envgap:tool:${tool}`, version]);
  for (const [index, url] of Object.entries(p.package_indexes).sort()) if (url) out.push([`envgap:index:${index}`, url]);
  return out;
}

/** A UUID from the instance and the time of its record, so a BOM of one record is always the same. */
function serialOf(id: string, recordedAt: string): string {
  const h = createHash('sha256').update(`${id}\0${recordedAt}`).digest('hex');
  return `urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
