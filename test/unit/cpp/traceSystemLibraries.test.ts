import {
  BASE_RUNTIME_LIBRARIES,
  isBaseRuntimeLibrary,
  libraryNameOfSharedObject,
  libraryNameOfStaticArchive,
  normalizeLibraryName,
  parseDpkgSearch,
} from '../../../src/ecosystems/systemLibraries';

describe('libraryNameOfSharedObject', () => {
  it('drops the folder, `lib` and the `.so` version suffix, in lower case', () => {
    expect(libraryNameOfSharedObject('/usr/lib/x86_64-linux-gnu/libssl.so.3')).toBe('ssl');
    expect(libraryNameOfSharedObject('/lib/x86_64-linux-gnu/libz.so.1.2.13')).toBe('z');
    expect(libraryNameOfSharedObject('/lib/x86_64-linux-gnu/libstdc++.so.6')).toBe('stdc++');
    expect(libraryNameOfSharedObject('/usr/lib/x86_64-linux-gnu/libcrypto.so')).toBe('crypto');
    expect(libraryNameOfSharedObject('/usr/lib/x86_64-linux-gnu/libldap-2.5.so.0')).toBe('ldap-2.5');
    expect(libraryNameOfSharedObject('/usr/lib/x86_64-linux-gnu/libLLVM-14.so.1')).toBe('llvm-14');
    expect(libraryNameOfSharedObject('/usr/lib/x86_64-linux-gnu/libbz2.so.1.0')).toBe('bz2');
    expect(libraryNameOfSharedObject('/lib64/ld-linux-x86-64.so.2')).toBe('ld-linux-x86-64');
    expect(libraryNameOfSharedObject('libhelpers.so')).toBe('helpers');
  });

  it('is null for anything that is not a shared object', () => {
    expect(libraryNameOfSharedObject('/usr/lib/x86_64-linux-gnu/libc_nonshared.a')).toBeNull();
    expect(libraryNameOfSharedObject('/etc/ld.so.cache')).toBeNull();
    expect(libraryNameOfSharedObject('/usr/lib/x86_64-linux-gnu/gconv/gconv-modules.cache')).toBeNull();
    expect(libraryNameOfSharedObject('/usr/lib/x86_64-linux-gnu/libfoo.so.debug')).toBeNull();
    expect(libraryNameOfSharedObject('/usr/lib/ssl/openssl.cnf')).toBeNull();
  });
});

describe('libraryNameOfStaticArchive and normalizeLibraryName', () => {
  it('reads `lib*.a` archives only', () => {
    expect(libraryNameOfStaticArchive('/work/build/_deps/fmt-build/libfmt.a')).toBe('fmt');
    expect(libraryNameOfStaticArchive('/usr/lib/x86_64-linux-gnu/libc_nonshared.a')).toBe('c_nonshared');
    expect(libraryNameOfStaticArchive('/usr/lib/x86_64-linux-gnu/crti.o')).toBeNull();
    expect(libraryNameOfStaticArchive('/work/data.a')).toBeNull();
  });

  it('lower-cases and drops a leading `lib`, but never empties a name', () => {
    expect(normalizeLibraryName('libcurl')).toBe('curl');
    expect(normalizeLibraryName('OpenSSL')).toBe('openssl');
    expect(normalizeLibraryName(' LibXml2 ')).toBe('xml2');
    expect(normalizeLibraryName('lib')).toBe('lib');
  });
});

describe('the base runtime libraries', () => {
  it('are the seven of the paper, plus the dynamic loader', () => {
    expect([...BASE_RUNTIME_LIBRARIES].sort()).toEqual(['c', 'dl', 'gcc_s', 'm', 'pthread', 'rt', 'stdc++']);
    expect(isBaseRuntimeLibrary('ld-linux-x86-64')).toBe(true);
    expect(isBaseRuntimeLibrary('ld-linux-aarch64')).toBe(true);
    expect(isBaseRuntimeLibrary('gcc_s')).toBe(true);
    expect(isBaseRuntimeLibrary('ssl')).toBe(false);
    expect(isBaseRuntimeLibrary('ldap-2.5')).toBe(false);
  });
});

// `dpkg -S` (dpkg 1.21, bookworm) for files a build opened; errors go to stderr, but a caller may merge them.
const DPKG_S = `libssl-dev:amd64: /usr/include/openssl/sha.h
libssl-dev:amd64: /usr/lib/x86_64-linux-gnu/pkgconfig/openssl.pc
libssl3:amd64: /usr/lib/x86_64-linux-gnu/libssl.so.3
libc6:amd64: /lib/x86_64-linux-gnu/libc.so.6
libstdc++-12-dev:amd64: /usr/include/x86_64-linux-gnu/c++/12/bits/c++config.h
gcc: /usr/lib/bfd-plugins/liblto_plugin.so
binutils-x86-64-linux-gnu: /usr/lib/x86_64-linux-gnu/bfd-plugins/libdep.so
nlohmann-json3-dev: /usr/share/cmake/nlohmann_json/nlohmann_jsonConfig.cmake
diversion by postgresql-common from: /usr/bin/pg_config
diversion by postgresql-common to: /usr/bin/pg_config.libpq-dev
postgresql-common, libpq-dev: /usr/bin/pg_config
libssl-dev:amd64, zlib1g-dev:amd64: /usr/share/doc-base
dpkg-query: no path found matching pattern /usr/local/include/foo.h
dpkg-query: no path found matching pattern /lib/x86_64-linux-gnu/libbfd-2.40-system.so
`;

describe('parseDpkgSearch', () => {
  it('maps each path to its package without the architecture qualifier', () => {
    const owners = parseDpkgSearch(DPKG_S);
    expect(owners.get('/usr/include/openssl/sha.h')).toBe('libssl-dev');
    expect(owners.get('/usr/lib/x86_64-linux-gnu/libssl.so.3')).toBe('libssl3');
    expect(owners.get('/usr/include/x86_64-linux-gnu/c++/12/bits/c++config.h')).toBe('libstdc++-12-dev');
    expect(owners.get('/usr/lib/bfd-plugins/liblto_plugin.so')).toBe('gcc');
    expect(owners.get('/usr/share/cmake/nlohmann_json/nlohmann_jsonConfig.cmake')).toBe('nlohmann-json3-dev');
  });

  it('gives a path several packages list to the first, and skips diversions and errors', () => {
    const owners = parseDpkgSearch(DPKG_S);
    expect(owners.get('/usr/bin/pg_config')).toBe('postgresql-common');
    expect(owners.get('/usr/share/doc-base')).toBe('libssl-dev');
    expect(owners.has('/usr/bin/pg_config.libpq-dev')).toBe(false);
    expect(owners.has('/usr/local/include/foo.h')).toBe(false);
    expect(owners.has('/lib/x86_64-linux-gnu/libbfd-2.40-system.so')).toBe(false);
    expect(owners.size).toBe(10);
  });

  it('handles CRLF and empty output', () => {
    expect([...parseDpkgSearch('zlib1g-dev:amd64: /usr/include/zlib.h\r\n')]).toEqual([['/usr/include/zlib.h', 'zlib1g-dev']]);
    expect(parseDpkgSearch('').size).toBe(0);
  });
});
