import * as path from 'node:path';
import * as ts from 'typescript';

// The artefact names are a string-literal union per ecosystem: a misspelt name in a runner or a
// layer is a compile error, not a missing artefact at run time. Checked here with the compiler.
const ROOT = path.resolve(__dirname, '../..');
const PROBE = path.join(ROOT, 'test/unit/__artefactNames.probe.ts');
const SOURCE = `
import { Steps } from '../../src/activities/runners/steps';
import type { Sandbox } from '../../src/sandbox';
import { layer, type Ecosystem } from '../../src/ecosystems/ecosystem';
import { PYTHON, type PythonArtefact } from '../../src/ecosystems/python/ecosystem';
declare const session: Sandbox<import('../../src/domain/study').ContainerLimits>;
const steps = new Steps<PythonArtefact>(session);
void steps.collect('runTrace', '/tmp/envgap/run.trace');
void steps.collect('runTrce', '/tmp/envgap/run.trace');
steps.keep('npmLs', '{}');
layer(['runTrace', 'distributionIndex'], (t) => [t.need('distributionIndex'), t.need('installedBefore')]);
export const ok: Ecosystem<'python', PythonArtefact, 'install' | 'run'> = { ...PYTHON, traced: layer(['runTrace'], (t) => [t.need('runTrace')]) };
export const bad: Ecosystem<'python', PythonArtefact, 'install' | 'run'> = { ...PYTHON, traced: layer(['runTrace', 'packageIndex'], () => []) };
`;

test('a misspelt or foreign artefact name does not compile', () => {
  const options: ts.CompilerOptions = { strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16, types: ['node'], esModuleInterop: true };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = ((exists) => (f: string) => f === PROBE || exists(f))(host.fileExists.bind(host));
  host.readFile = (f) => (f === PROBE ? SOURCE : readFile(f));
  host.getSourceFile = (f, v, ...rest) => (f === PROBE ? ts.createSourceFile(f, SOURCE, v) : getSourceFile(f, v, ...rest));
  const program = ts.createProgram([PROBE], options, host);
  const errors = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === PROBE)
    .map((d) => `${d.file!.getLineAndCharacterOfPosition(d.start!).line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0]}`);
  expect(errors).toEqual([
    expect.stringMatching(/^8: Argument of type '"runTrce"' is not assignable/),
    expect.stringMatching(/^9: Argument of type '"npmLs"' is not assignable/),
    expect.stringMatching(/^10: Argument of type '"installedBefore"' is not assignable/),
    expect.stringMatching(/^12: Type 'Layer<"runTrace" \| "packageIndex", \[\], never\[\]>' is not assignable/),
  ]);
});
