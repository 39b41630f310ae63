import { createHash } from 'node:crypto';
import { builtinModules } from 'node:module';
import { LANGUAGES } from '../../../src/domain/instance';
import { NODE_BUILTIN_MODULES } from '../../../src/ecosystems/javascript/nodeBuiltins';
import { ECOSYSTEMS } from '../../../src/ecosystems/registry';
import { CACHE_BINDS, PIP_CACHE_BIND } from '../../../src/infra/caches';
import { CA_ENV, RUNTIME_RECIPES } from '../../../src/infra/recipes';

// The runtime images are tagged by the hash of their recipe: moving the CA variables into the
// ecosystem records must not change a byte of any recipe (else every machine rebuilds its images).
// These hashes are those of the recipes before the move; a deliberate recipe change updates them.
const RECIPE_SHA256: Record<string, string> = {
  python: '391e980a53fe369aa70c8100863f5bf839c30844f4e1b0db2a76e66c20ef16ab', // coverage.py baked in (issue 26 item 2)
  java: '4a297ed736b8f25180d17eb04c791d64e44e05c88b0db6b71ff237f711ecbf41', // JaCoCo baked in (issue 26 item 2)
  javascript: 'a7370e86fbca6a5aac1555f23065e531829de582f993cc5e3d2edc42e751bb46',
  cpp: 'b12338cdd802b59dceeb3d00158c9419134ccbbe7426b2dba04382c817b981c9',
};

test.each([...LANGUAGES])('the %s runtime recipe is byte for byte what it was', (language) => {
  expect(createHash('sha256').update(RUNTIME_RECIPES[language]('debian:bookworm')).digest('hex')).toBe(RECIPE_SHA256[language]);
});

test('the CA variables: OpenSSL first, then each package manager\'s, once each, in the old order', () => {
  const bundle = '/etc/ssl/certs/ca-certificates.crt';
  expect(CA_ENV).toEqual(['SSL_CERT_FILE', 'PIP_CERT', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE', 'GIT_SSL_CAINFO', 'NODE_EXTRA_CA_CERTS', 'npm_config_cafile'].map((v) => `${v}=${bundle}`));
});

test('the shared caches come from the records: pip, Maven, npm', () => {
  expect([...CACHE_BINDS].sort()).toEqual(['envgap-maven-cache:/root/.m2/repository', 'envgap-npm-cache:/root/.npm', 'envgap-pip-cache:/root/.cache/pip']);
  expect(PIP_CACHE_BIND).toBe('envgap-pip-cache:/root/.cache/pip');
});

test('display names and purl types', () => {
  expect(LANGUAGES.map((l) => [ECOSYSTEMS[l].displayName, ECOSYSTEMS[l].purlType])).toEqual(
    LANGUAGES.map((l) => ({ python: ['Python', 'pypi'], java: ['Java', 'maven'], javascript: ['JavaScript', 'npm'], cpp: ['C++', 'generic'] })[l]),
  );
});

test("the written-out Node builtins are this Node's (the static baseline's JavaScript table)", () => {
  const running = new Set(builtinModules.map((m) => m.replace(/^node:/, '')));
  // Written from Node 20; a newer Node may add modules, never drop these.
  for (const m of NODE_BUILTIN_MODULES) expect(running).toContain(m);
  if (process.versions.node.startsWith('20.')) expect(new Set(NODE_BUILTIN_MODULES)).toEqual(running);
});
