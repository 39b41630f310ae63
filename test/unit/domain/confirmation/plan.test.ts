import { confirmationPlan } from '../../../../src/ecosystems/removal/plan';
import { BLOAT_UNSUPPORTED } from '../../../../src/ecosystems/removal';

describe('which names a confirmation tries', () => {
  test('phantoms still declared are tried; those the final manifest dropped are unneeded without a trial', () => {
    const files = { 'requirements.txt': 'click\ncolorama\n' };
    const plan = confirmationPlan('python', files, { declared: ['click', 'colorama', 'rich'], installed: ['click', 'colorama'], traced: ['click'] });
    expect(plan).toEqual({ phantom: { removable: ['colorama'], notInFinalManifest: ['rich'], notRemovable: [] }, bloat: { unsupported: BLOAT_UNSUPPORTED.python } });
  });

  test('Java: bloat is every installed name not traced; a name in an included CMake file is not removable', () => {
    const pom = '<project><dependencies><dependency><groupId>g</groupId><artifactId>a</artifactId></dependency></dependencies></project>';
    expect(confirmationPlan('java', { 'pom.xml': pom }, { declared: ['a'], installed: ['a', 'b', 'c'], traced: ['a', 'c'] }).bloat).toEqual({ removable: ['b'] });
    const cmake = { 'CMakeLists.txt': 'include(deps.cmake)\nadd_executable(app main.cpp)\n', 'deps.cmake': 'find_package(ZLIB REQUIRED)\n' };
    expect(confirmationPlan('cpp', cmake, { declared: ['zlib'], installed: ['zlib'], traced: [] }).phantom).toEqual({ removable: [], notInFinalManifest: [], notRemovable: ['zlib'] });
  });
});
