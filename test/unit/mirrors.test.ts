import { mirrorConfig } from '../../src/infra/mirrors';

test('nothing configured: nothing changes', () => {
  expect(mirrorConfig({})).toEqual({ env: [], binds: [], files: {} });
});

test('pip index and wheelhouse, npm registry and Maven mirror', () => {
  const c = mirrorConfig({ pipIndexUrl: 'http://mirror/simple', pipFindLinks: '/opt/wheels', npmRegistry: 'http://npm.local/', mavenMirror: 'http://nexus/repo?a=1&b=2' });
  expect(c.env).toEqual(['PIP_INDEX_URL=http://mirror/simple', 'PIP_FIND_LINKS=/wheelhouse', 'npm_config_registry=http://npm.local/']);
  expect(c.binds).toEqual(['/opt/wheels:/wheelhouse:ro']);
  expect(c.files['/root/.m2/settings.xml']).toContain('<mirrorOf>*</mirrorOf><url>http://nexus/repo?a=1&amp;b=2</url>');
});
