import { loadCatalog } from '../../../src/catalog/catalog';
import { CatalogTask } from '../../../src/catalog/schema';
import { stdlibAnnotation, stdlibSufficientIn } from '../../../src/catalog/stdlibAnnotation';
import { LANGUAGES } from '../../../src/domain/instance';

describe('the catalog\'s a-priori standard-library annotation', () => {
  const catalog = loadCatalog();

  it('annotates all 50 tasks in every language, each with a one-line reason', () => {
    expect(catalog.tasks).toHaveLength(50);
    for (const task of catalog.tasks) {
      for (const language of LANGUAGES) expect(typeof stdlibSufficientIn(task, language)).toBe('boolean');
      expect(task.stdlib_reason).toMatch(/^[^\n]{20,240}$/);
    }
    expect(Object.keys(stdlibAnnotation(catalog.tasks))).toHaveLength(200);
  });

  it('judges as the reasons say: the standard library has the format, protocol or primitive, or it does not', () => {
    const a = stdlibAnnotation(catalog.tasks);
    // CSV statistics: plain code everywhere.
    expect([a['python/p_01'], a['java/p_01'], a['javascript/p_01'], a['cpp/p_01']]).toEqual([true, true, true, true]);
    // Reading JSON: Python and JavaScript have a parser, the JDK and C++ do not.
    expect([a['python/p_02'], a['java/p_02'], a['javascript/p_02'], a['cpp/p_02']]).toEqual([true, false, true, false]);
    // AES: javax.crypto and Node's crypto; not Python's hashlib, not C++.
    expect([a['python/p_11'], a['java/p_11'], a['javascript/p_11'], a['cpp/p_11']]).toEqual([false, true, true, false]);
    // YAML and bcrypt: nowhere.
    for (const task of ['p_04', 'p_17']) for (const l of LANGUAGES) expect(a[`${l}/${task}`]).toBe(false);
    // SQLite: Python's sqlite3 alone.
    expect(LANGUAGES.filter((l) => a[`${l}/p_06`])).toEqual(['python']);
  });

  it('a boolean applies to every language, null to none; the per-language form must name all four', () => {
    expect(stdlibSufficientIn({ stdlib_sufficient: true }, 'cpp')).toBe(true);
    expect(stdlibSufficientIn({ stdlib_sufficient: null }, 'cpp')).toBeNull();
    expect(stdlibAnnotation([{ id: 'x', stdlib_sufficient: null }, { id: 'y', stdlib_sufficient: false }])).toEqual({ 'python/y': false, 'java/y': false, 'javascript/y': false, 'cpp/y': false });
    const task = { id: 'p_01', title: 't', domain: 'd', complexity: 'c', dependency_relevance: 'r', description: 'x' };
    expect(CatalogTask.safeParse({ ...task, stdlib_sufficient: { python: true } }).success).toBe(false);
    expect(CatalogTask.safeParse({ ...task, stdlib_sufficient: { python: true, java: true, javascript: true, cpp: true }, stdlib_reason: 'why' }).success).toBe(true);
  });
});
