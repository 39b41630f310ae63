/**
 * A generated project: relative POSIX path -> content. Text files are their UTF-8 text. A binary file
 * (an image, an archive, a jar, a font: bytes that are not valid UTF-8 or that hold a NUL byte) is the
 * reserved prefix BINARY_PREFIX followed by the base64 of its bytes, so the map stays path -> string
 * everywhere (blobs, records, activities) and a binary is still copied byte for byte into a container.
 * A text file whose content itself starts with BINARY_PREFIX is stored encoded the same way (see
 * `fileContent`), so its text is never mistaken for base64: its bytes are exactly what it held.
 * Use `fileBytes` to get a file's bytes and `isBinaryContent` to leave binaries out of text readers.
 */
export type ProjectFiles = Record<string, string>;

/** The prefix of an encoded binary file's content. */
export const BINARY_PREFIX = 'envgap:base64:';

/** The most decoded bytes one project may hold, text and binary files together. */
export const MAX_PROJECT_BYTES = 50 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Whether a file's content is an encoded binary (BINARY_PREFIX + base64). */
export function isBinaryContent(content: string): boolean {
  return content.startsWith(BINARY_PREFIX);
}

/** The content of a binary file: BINARY_PREFIX + base64 of its bytes. */
export function encodeBinary(bytes: Uint8Array): string {
  return BINARY_PREFIX + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/**
 * The content under which a file's bytes are kept: its text when they are UTF-8 without a NUL byte
 * and do not start with BINARY_PREFIX; encodeBinary(bytes) otherwise.
 */
export function fileContent(bytes: Uint8Array): string {
  if (!bytes.includes(0)) {
    let text: string | undefined;
    try {
      text = utf8.decode(bytes);
    } catch {
      text = undefined;
    }
    if (text !== undefined && !isBinaryContent(text)) return text;
  }
  return encodeBinary(bytes);
}

/** A file's bytes: the decoded base64 of a binary, the UTF-8 of a text. Throws on a malformed binary. */
export function fileBytes(content: string): Buffer {
  if (!isBinaryContent(content)) return Buffer.from(content, 'utf8');
  if (!isWellFormedBinary(content)) throw new Error(`a binary file's content is not ${BINARY_PREFIX} followed by base64`);
  return Buffer.from(content.slice(BINARY_PREFIX.length), 'base64');
}

/** How many bytes a file's content stands for (decoded for a binary), without decoding it. */
export function fileByteLength(content: string): number {
  if (!isBinaryContent(content)) return Buffer.byteLength(content, 'utf8');
  const b64 = content.slice(BINARY_PREFIX.length);
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return Math.max(0, (b64.length / 4) * 3 - padding);
}

/** The decoded bytes of a whole project. */
export function projectByteLength(files: ProjectFiles): number {
  let total = 0;
  for (const content of Object.values(files)) total += fileByteLength(content);
  return total;
}

/** Rejects absolute paths and parent escapes so a project can never write outside its workspace. */
export function assertSafeRelativePath(path: string): void {
  if (path === '' || path.startsWith('/') || path.includes('\\') || path.split('/').some((s) => s === '..' || s === '')) {
    throw new Error(`unsafe project path "${path}": must be a relative POSIX path without ".."`);
  }
}

/**
 * Checks what any agent's answer must be before it is stored: safe paths, binary contents that are
 * well-formed base64, and at most MAX_PROJECT_BYTES of files (decoded) in all. Throws otherwise.
 */
export function validateProjectFiles(files: ProjectFiles): ProjectFiles {
  for (const [p, content] of Object.entries(files)) {
    assertSafeRelativePath(p);
    if (isBinaryContent(content) && !isWellFormedBinary(content)) {
      throw new Error(`a binary file "${p}" whose content is not ${BINARY_PREFIX} followed by base64`);
    }
  }
  const total = projectByteLength(files);
  if (total > MAX_PROJECT_BYTES) {
    throw new Error(`files of ${total} bytes in all, over the limit of ${MAX_PROJECT_BYTES} bytes (${MAX_PROJECT_BYTES / 1024 / 1024} MiB) per project`);
  }
  return files;
}

function isWellFormedBinary(content: string): boolean {
  const b64 = content.slice(BINARY_PREFIX.length);
  return b64.length % 4 === 0 && BASE64.test(b64);
}
