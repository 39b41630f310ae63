import { normalizePythonName } from '../../../src/ecosystems/python/pep503';

describe('normalizePythonName', () => {
  it.each([
    ['Django', 'django'],
    ['python-dateutil', 'python-dateutil'],
    ['python_dateutil', 'python-dateutil'],
    ['PyYAML', 'pyyaml'],
    ['zope.interface', 'zope-interface'],
    ['Flask_SQLAlchemy', 'flask-sqlalchemy'],
    ['friendly-bard', 'friendly-bard'],
    ['Friendly-Bard', 'friendly-bard'],
    ['FRIENDLY-BARD', 'friendly-bard'],
    ['friendly.bard', 'friendly-bard'],
    ['friendly_bard', 'friendly-bard'],
    ['friendly--bard', 'friendly-bard'],
    ['FrIeNdLy-._.-bArD', 'friendly-bard'],
    ['scikit-learn', 'scikit-learn'],
    ['backports.zoneinfo', 'backports-zoneinfo'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizePythonName(input)).toBe(expected);
  });
});
