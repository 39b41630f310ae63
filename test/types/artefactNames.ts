// Type-level tests, checked by the full run's typecheck (`tsc -p tsconfig.test.json`, scripts/test.sh),
// not by jest: the artefact names are a string-literal union per ecosystem, so a misspelt name in a
// runner or a layer is a compile error, not a missing artefact at run time. Each @ts-expect-error line
// must fail to compile: were it to compile, the typecheck fails ("Unused '@ts-expect-error' directive").
import { Steps } from '../../src/activities/runners/steps';
import type { Sandbox } from '../../src/sandbox';
import { layer, type Ecosystem } from '../../src/ecosystems/ecosystem';
import { PYTHON, type PythonArtefact } from '../../src/ecosystems/python/ecosystem';

declare const session: Sandbox<import('../../src/domain/study').ContainerLimits>;
const steps = new Steps<PythonArtefact>(session);
export const collected = steps.collect('runTrace', '/tmp/envgap/run.trace');
// @ts-expect-error a misspelt artefact name
export const misspelt = steps.collect('runTrce', '/tmp/envgap/run.trace');
// @ts-expect-error another ecosystem's artefact
export const foreign = () => steps.keep('npmLs', '{}');
// @ts-expect-error a layer that needs an artefact it does not name
export const undeclaredNeed = layer(['runTrace', 'distributionIndex'], (t) => [t.need('distributionIndex'), t.need('installedBefore')]);
export const ok: Ecosystem<'python', PythonArtefact, 'install' | 'run'> = { ...PYTHON, traced: layer(['runTrace'], (t) => [t.need('runTrace')]) };
// @ts-expect-error a layer naming an artefact the ecosystem does not have
export const bad: Ecosystem<'python', PythonArtefact, 'install' | 'run'> = { ...PYTHON, traced: layer(['runTrace', 'packageIndex'], () => []) };
