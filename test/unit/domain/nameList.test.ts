import { boundNames, capName, isStoredNames, MAX_INLINE_LIST_BYTES, MAX_NAME_CHARS } from '../../../src/domain/nameList';

test('a 3 MiB name is cut to a bounded one that says how much was cut', () => {
  const huge = 'a'.repeat(3 * 1024 * 1024);
  const capped = capName(huge);
  expect(capped.length).toBeLessThan(MAX_NAME_CHARS + 40);
  expect(capped).toContain(`(${huge.length - MAX_NAME_CHARS} more characters)`);
  expect(capName('requests')).toBe('requests');
});

test('a long list may not travel inline; a short one may', () => {
  expect(boundNames(['numpy', 'pandas'])).toEqual({ names: ['numpy', 'pandas'], inline: true });
  const many = Array.from({ length: 5000 }, (_, i) => `package-${i}`);
  const b = boundNames(many);
  expect(b.inline).toBe(false);
  expect(b.names).toHaveLength(5000);
  expect(JSON.stringify(b.names.slice(0, 10)).length).toBeLessThan(MAX_INLINE_LIST_BYTES);
});

test('stored lists are told from plain ones', () => {
  expect(isStoredNames({ blob: 'sha256:x', count: 3 })).toBe(true);
  expect(isStoredNames(['a'])).toBe(false);
  expect(isStoredNames(null)).toBe(false);
});
