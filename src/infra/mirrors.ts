import type { Settings } from './settings';

export interface ContainerConfig {
  env: string[];
  binds: string[];
  /** Files to place in the container before the runner starts: absolute path -> content. */
  files: Record<string, string>;
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Points pip, npm and Maven inside a container at a local mirror or wheelhouse, when configured. */
export function mirrorConfig(s: Pick<Settings, 'pipIndexUrl' | 'pipFindLinks' | 'npmRegistry' | 'mavenMirror'>): ContainerConfig {
  const c: ContainerConfig = { env: [], binds: [], files: {} };
  if (s.pipIndexUrl) c.env.push(`PIP_INDEX_URL=${s.pipIndexUrl}`);
  if (s.pipFindLinks) {
    c.binds.push(`${s.pipFindLinks}:/wheelhouse:ro`);
    c.env.push('PIP_FIND_LINKS=/wheelhouse');
  }
  if (s.npmRegistry) c.env.push(`npm_config_registry=${s.npmRegistry}`);
  if (s.mavenMirror) {
    c.files['/root/.m2/settings.xml'] = `<settings>
  <mirrors>
    <mirror><id>envgap-mirror</id><mirrorOf>*</mirrorOf><url>${xml(s.mavenMirror)}</url></mirror>
  </mirrors>
</settings>
`;
  }
  return c;
}
