import { firstErrorClass } from '../../../src/importers/envgapErrorClass';

describe('EnvGap first-error labels', () => {
  it('C++: MissingDep and SystemLib are both a missing system library', () => {
    expect(firstErrorClass('MissingDep', 'cpp')).toBe('SystemLib');
    expect(firstErrorClass('SystemLib', 'cpp')).toBe('SystemLib');
  });

  it('elsewhere MissingDep stays MissingDep', () => {
    expect(firstErrorClass('MissingDep', 'python')).toBe('MissingDep');
    expect(firstErrorClass('SystemLib', 'python')).toBe('SystemLib');
  });

  it('maps the other labels', () => {
    expect(firstErrorClass('BuildError', 'cpp')).toBe('Build');
    expect(firstErrorClass('BuildConfig', 'java')).toBe('Build');
    expect(firstErrorClass('InstallError', 'javascript')).toBe('FetchFail');
    expect(firstErrorClass('RuntimeError', 'python')).toBe('Runtime');
    expect(firstErrorClass('CodeBug', 'java')).toBe('Other');
    expect(firstErrorClass('MultipleFixes', 'cpp')).toBe('Other');
    expect(firstErrorClass('None', 'cpp')).toBe('Other');
  });

  it('rejects a label it does not know', () => {
    expect(() => firstErrorClass('Cosmic', 'cpp')).toThrow(/unknown initial_error_type "Cosmic"/);
  });
});
