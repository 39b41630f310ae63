import { staticGen, staticRepair } from '../../../src/agents/static';
import { cppIncludes, cppLibrary, cppMissingFromError } from '../../../src/ecosystems/cpp/staticBaseline';
import { javaCoordinate, javaImports, javaMissingFromError } from '../../../src/ecosystems/java/staticBaseline';
import { javascriptMissingFromError, javascriptSpecifiers, packageOfSpecifier } from '../../../src/ecosystems/javascript/staticBaseline';
import { pythonDistribution, pythonImports, pythonMissingFromError } from '../../../src/ecosystems/python/staticBaseline';
import { declaredDependencies } from '../../../src/ecosystems/declared';

describe('python scanner', () => {
  it('finds top-level modules of import and from-import, stdlib and local modules left out', () => {
    expect(pythonImports('import os, sys\nimport numpy as np\nfrom PIL.Image import open\n  import yaml  # c\nfrom . import x\n')).toEqual(['PIL', 'numpy', 'os', 'sys', 'yaml']);
    expect(pythonDistribution('os')).toBeNull();
    expect(pythonDistribution('yaml')).toBe('PyYAML');
    expect(pythonDistribution('sklearn')).toBe('scikit-learn');
    expect(pythonDistribution('requests')).toBe('requests');
    const files = staticGen('python', { 'main.py': 'import helpers\nimport cv2\nimport json\n', 'helpers.py': 'import bs4\n', 'requirements.txt': 'x==1\n' });
    expect(files['requirements.txt']).toBe('beautifulsoup4\nopencv-python\n');
    expect(files['helpers.py']).toBe('import bs4\n');
  });

  it('repairs from ModuleNotFoundError, and gives up when the error names nothing new', () => {
    const tail = 'Traceback (most recent call last):\n  File "/work/main.py", line 3, in <module>\n    import yaml\nModuleNotFoundError: No module named \'yaml\'\n';
    expect(pythonMissingFromError(tail)).toBe('PyYAML');
    const previous = { 'main.py': 'import yaml\n', 'requirements.txt': 'click\n' };
    const repaired = staticRepair('python', previous, tail)!;
    expect(repaired['requirements.txt']).toBe('PyYAML\nclick\n');
    expect(declaredDependencies('python', repaired).names).toEqual(['click', 'pyyaml']);
    expect(staticRepair('python', repaired, tail)).toBeNull();
    expect(staticRepair('python', previous, "ModuleNotFoundError: No module named 'tkinter'")).toBeNull();
    expect(staticRepair('python', previous, 'SyntaxError: invalid syntax')).toBeNull();
  });
});

describe('javascript scanner', () => {
  it('reads require, import and export-from specifiers and maps them to packages', () => {
    const src = "const a = require('lodash/fp');\nimport x from '@babel/core/lib/x.js';\nimport 'dotenv/config';\nimport fs from 'node:fs';\nexport { y } from './y.js';\nconst p = require('path');\nconst m = await import('chalk');\n";
    const names = javascriptSpecifiers(src).map(packageOfSpecifier).filter((n) => n !== null).sort();
    expect(names).toEqual(['@babel/core', 'chalk', 'dotenv', 'lodash']);
    expect(packageOfSpecifier('fs/promises')).toBeNull();
  });

  it('keeps how to run the project and writes dependencies afresh', () => {
    const files = staticGen('javascript', { 'index.mjs': "import chalk from 'chalk';\n", 'package.json': '{"name":"n","type":"module","scripts":{"start":"node index.mjs"},"dependencies":{"moment":"1"}}' });
    const pkg = JSON.parse(files['package.json']!);
    expect(pkg).toMatchObject({ name: 'n', type: 'module', scripts: { start: 'node index.mjs' }, dependencies: { chalk: '*' } });
    expect(declaredDependencies('javascript', files).names).toEqual(['chalk']);
  });

  it('repairs from Cannot find module / ERR_MODULE_NOT_FOUND', () => {
    expect(javascriptMissingFromError("Error: Cannot find module '@faker-js/faker/locale/en'\nRequire stack:\n- /work/src/seed.js\n")).toBe('@faker-js/faker');
    expect(javascriptMissingFromError("Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'chalk' imported from /work/index.mjs")).toBe('chalk');
    expect(javascriptMissingFromError("Error: Cannot find module './lib/util'")).toBeNull();
    expect(javascriptMissingFromError("Error: Cannot find module '/work/index.js'")).toBeNull();
    const repaired = staticRepair('javascript', { 'index.js': '', 'package.json': '{"dependencies":{"a":"*"}}' }, "Cannot find module 'lodash'")!;
    expect(declaredDependencies('javascript', repaired).names).toEqual(['a', 'lodash']);
  });
});

describe('java scanner', () => {
  it('maps import prefixes to Maven coordinates, the JDK left out', () => {
    expect(javaImports('import java.util.List;\nimport static org.junit.jupiter.api.Assertions.assertEquals;\nimport com.google.common.collect.*;\n')).toEqual([
      'com.google.common.collect',
      'java.util.List',
      'org.junit.jupiter.api.Assertions.assertEquals',
    ]);
    expect(javaCoordinate('java.util.List')).toBeNull();
    expect(javaCoordinate('org.junit.jupiter.api.Test')?.artifactId).toBe('junit-jupiter');
    expect(javaCoordinate('org.junit.Test')?.artifactId).toBe('junit');
    expect(javaCoordinate('com.fasterxml.jackson.databind.ObjectMapper')).toEqual({ groupId: 'com.fasterxml.jackson.core', artifactId: 'jackson-databind', version: '2.17.2' });
  });

  it('writes a pom with the main class and repairs from "package x does not exist"', () => {
    const code = { 'src/main/java/a/App.java': 'package a;\nimport org.apache.commons.lang3.StringUtils;\npublic class App { public static void main(String[] x) {} }\n' };
    const files = staticGen('java', { ...code, 'pom.xml': '<project/>' });
    expect(files['pom.xml']).toContain('<mainClass>a.App</mainClass>');
    expect(declaredDependencies('java', files).names).toEqual(['commons-lang3']);
    const tail = '[ERROR] /work/src/main/java/a/App.java:[3,22] package com.google.gson does not exist\n';
    expect(javaMissingFromError(tail)?.artifactId).toBe('gson');
    const repaired = staticRepair('java', files, tail)!;
    expect(declaredDependencies('java', repaired).names).toEqual(['commons-lang3', 'gson']);
    expect(staticRepair('java', repaired, tail)).toBeNull();
    expect(staticRepair('java', files, '[ERROR] cannot find symbol\n  symbol:   class Gson\n  location: class a.App')).toBeNull();
  });
});

describe('cpp scanner', () => {
  it('maps includes to find_package names and Debian packages', () => {
    expect(cppIncludes('#include <fmt/core.h>\n#  include "util.h"\n#include <vector>\n')).toEqual(['fmt/core.h', 'util.h', 'vector']);
    expect(cppLibrary('vector')).toBeNull();
    expect(cppLibrary('boost/asio.hpp')?.findPackage).toBe('Boost');
    expect(cppLibrary('sqlite3.h')?.debian).toBe('libsqlite3-dev');
    const files = staticGen('cpp', { 'src/main.cpp': '#include <fmt/core.h>\n#include <Eigen/Dense>\n#include "util.h"\n', 'src/util.h': '', 'apt.txt': 'x\n' });
    expect(files['apt.txt']).toBe('libeigen3-dev\nlibfmt-dev\n');
    expect(declaredDependencies('cpp', files).names).toEqual(['eigen3', 'fmt', 'libeigen3-dev', 'libfmt-dev']);
  });

  it('repairs from CMake and compiler errors', () => {
    expect(cppMissingFromError('fatal error: nlohmann/json.hpp: No such file or directory')?.findPackage).toBe('nlohmann_json');
    expect(cppMissingFromError('Could not find a package configuration file provided by "nlohmann_json" with any of')?.debian).toBe('nlohmann-json3-dev');
    expect(cppMissingFromError('Could NOT find CURL (missing: CURL_LIBRARY CURL_INCLUDE_DIR)')?.findPackage).toBe('CURL');
    expect(cppMissingFromError('fatal error: utils.h: No such file or directory')).toBeNull();
    const previous = staticGen('cpp', { 'src/main.cpp': '#include <zlib.h>\n' });
    const repaired = staticRepair('cpp', previous, 'src/main.cpp:2:10: fatal error: sqlite3.h: No such file or directory')!;
    expect(declaredDependencies('cpp', repaired).names).toEqual(['libsqlite3-dev', 'sqlite3', 'zlib', 'zlib1g-dev']);
    expect(staticRepair('cpp', repaired, 'fatal error: sqlite3.h: No such file or directory')).toBeNull();
  });
});
