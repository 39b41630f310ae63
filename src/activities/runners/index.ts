import type { ProjectFiles } from '../../domain/files';
import type { Language } from '../../domain/instance';
import type { ContainerLimits } from '../../domain/study';
import type { ContainerSession } from '../containerSession';
import { runCpp } from './cpp';
import { runJava } from './java';
import { runJavaScript } from './javascript';
import { runPython } from './python';
import type { RunnerResult } from './steps';

export type Runner = (session: ContainerSession, files: ProjectFiles, limits: ContainerLimits) => Promise<RunnerResult>;

export const RUNNERS: Record<Language, Runner> = { python: runPython, java: runJava, javascript: runJavaScript, cpp: runCpp };
