import { dpkgQueryPaths } from '../../src/activities/runners/cpp';

test('asks dpkg about system headers, libraries, CMake and pkg-config files, in both /lib spellings', () => {
  expect(
    dpkgQueryPaths([
      '/usr/include/nlohmann/json.hpp',
      '/usr/include/c++/12/vector',
      '/usr/include/eigen3/Eigen/Core',
      '/lib/x86_64-linux-gnu/libcrypto.so.3',
      '/usr/lib/x86_64-linux-gnu/pkgconfig/libcurl.pc',
      '/usr/share/cmake/nlohmann_json/nlohmann_jsonConfig.cmake',
      '/work/build/libhelpers.so',
      '/work/src/main.cpp',
      '/etc/ld.so.cache',
      '/usr/bin/g++',
    ]),
  ).toEqual([
    '/lib/x86_64-linux-gnu/libcrypto.so.3',
    '/usr/include/c++/12/vector',
    '/usr/include/nlohmann/json.hpp',
    '/usr/lib/x86_64-linux-gnu/libcrypto.so.3',
    '/usr/lib/x86_64-linux-gnu/pkgconfig/libcurl.pc',
    '/usr/share/cmake/nlohmann_json/nlohmann_jsonConfig.cmake',
    '/lib/x86_64-linux-gnu/pkgconfig/libcurl.pc',
    '/usr/include/eigen3/Eigen/Core',
  ].sort());
});
