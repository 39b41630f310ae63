import {
  BINARY_PREFIX,
  encodeBinary,
  fileByteLength,
  fileBytes,
  fileContent,
  isBinaryContent,
  MAX_PROJECT_BYTES,
  projectByteLength,
  validateProjectFiles,
} from '../../../src/domain/files';

// The first bytes of a PNG: its signature holds 0x89 (not UTF-8) and NUL bytes.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('binary file contents', () => {
  it('keeps UTF-8 text as its text', () => {
    expect(fileContent(Buffer.from('print("héllo")\n'))).toBe('print("héllo")\n');
    expect(fileContent(Buffer.alloc(0))).toBe('');
    expect(isBinaryContent('print(1)')).toBe(false);
    expect(fileBytes('héllo').equals(Buffer.from('héllo', 'utf8'))).toBe(true);
  });

  it('encodes bytes that are not UTF-8, and decodes them back byte for byte', () => {
    const content = fileContent(PNG);
    expect(content).toBe(BINARY_PREFIX + PNG.toString('base64'));
    expect(isBinaryContent(content)).toBe(true);
    expect(fileBytes(content).equals(PNG)).toBe(true);
    expect(fileByteLength(content)).toBe(PNG.length);
  });

  it('encodes valid UTF-8 that holds a NUL byte as a binary', () => {
    const bytes = Buffer.from('abc\0def');
    const content = fileContent(bytes);
    expect(isBinaryContent(content)).toBe(true);
    expect(fileBytes(content).equals(bytes)).toBe(true);
  });

  it('escapes a text file that starts with the prefix by encoding it: its text is never read as base64', () => {
    const text = `${BINARY_PREFIX}aGVsbG8=`;
    const content = fileContent(Buffer.from(text));
    expect(content).not.toBe(text);
    expect(fileBytes(content).toString('utf8')).toBe(text);
  });

  it('encodes a Uint8Array view without its surrounding buffer', () => {
    const whole = Buffer.from([1, 2, 0xff, 0xfe, 5]);
    expect(fileBytes(encodeBinary(whole.subarray(2, 4))).equals(Buffer.from([0xff, 0xfe]))).toBe(true);
  });

  it('refuses a malformed binary content', () => {
    expect(() => fileBytes(`${BINARY_PREFIX}not base64!`)).toThrow(/not envgap:base64: followed by base64/);
  });

  it('counts decoded bytes of a project', () => {
    for (const n of [0, 1, 2, 3, 4, 5]) expect(fileByteLength(encodeBinary(Buffer.alloc(n, 0xff)))).toBe(n);
    expect(projectByteLength({ 'a.txt': 'é', 'b.png': fileContent(PNG) })).toBe(2 + PNG.length);
  });

  it('validates a project: well-formed binaries, at most MAX_PROJECT_BYTES in all', () => {
    const ok = { 'a.png': fileContent(PNG), 'b.txt': 'b' };
    expect(validateProjectFiles(ok)).toBe(ok);
    expect(() => validateProjectFiles({ 'x.bin': `${BINARY_PREFIX}@@@@` })).toThrow(`a binary file "x.bin" whose content is not ${BINARY_PREFIX} followed by base64`);
    const big = encodeBinary(Buffer.alloc(MAX_PROJECT_BYTES / 2 + 3));
    expect(() => validateProjectFiles({ 'a.bin': big, 'b.bin': big })).toThrow(
      `files of ${MAX_PROJECT_BYTES + 6} bytes in all, over the limit of ${MAX_PROJECT_BYTES} bytes (50 MiB) per project`,
    );
    expect(() => validateProjectFiles({ '../x': 'x' })).toThrow(/unsafe project path/);
  });
});
