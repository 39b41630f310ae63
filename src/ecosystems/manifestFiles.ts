import type { Language } from '../domain/instance';

/** The file each language's dependency manifest lives in, at the top of a project (as the task prompts name it). */
export const MANIFEST_FILE: Record<Language, string> = {
  python: 'requirements.txt',
  java: 'pom.xml',
  javascript: 'package.json',
  cpp: 'CMakeLists.txt',
};
