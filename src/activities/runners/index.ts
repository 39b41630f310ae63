import type { ProjectFiles } from '../../domain/files';
import type { Language } from '../../domain/instance';
import type { RunSpec } from '../../domain/runSpec';
import type { ContainerLimits } from '../../domain/study';
import type { ArtefactOf } from '../../ecosystems/registry';
import type { Sandbox } from '../../sandbox';
import { runCpp } from './cpp';
import { runJava } from './java';
import { runJavaScript } from './javascript';
import { runPython } from './python';
import type { RunnerResult } from './steps';
import type { RunnerOptions } from './resolution';

/** Execute for one language: runs a project in a fresh container and gathers the artefacts its ecosystem's layers read. */
export type Runner<A extends string = string> = (session: Sandbox<ContainerLimits>, files: ProjectFiles, limits: ContainerLimits, spec?: RunSpec, options?: RunnerOptions) => Promise<RunnerResult<A>>;

/** Each language's runner, typed by the artefact union of its ecosystem record (src/ecosystems/registry.ts). */
export const TYPED_RUNNERS: { [L in Language]: Runner<ArtefactOf<L>> } = { python: runPython, java: runJava, javascript: runJavaScript, cpp: runCpp };

/** The same runners with artefacts by any name, for callers that store them whatever the language. */
export const RUNNERS: Record<Language, Runner> = TYPED_RUNNERS;
