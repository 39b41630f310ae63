/** A generated project: relative POSIX path -> UTF-8 content. */
export type ProjectFiles = Record<string, string>;

/** Rejects absolute paths and parent escapes so a project can never write outside its workspace. */
export function assertSafeRelativePath(path: string): void {
  if (path === '' || path.startsWith('/') || path.includes('\\') || path.split('/').some((s) => s === '..' || s === '')) {
    throw new Error(`unsafe project path "${path}": must be a relative POSIX path without ".."`);
  }
}

export function validateProjectFiles(files: ProjectFiles): ProjectFiles {
  for (const p of Object.keys(files)) assertSafeRelativePath(p);
  return files;
}
