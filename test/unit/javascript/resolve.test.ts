import { parseNpmLs } from '../../../src/ecosystems/javascript/resolve';

const registry = (name: string, version: string) => `https://registry.npmjs.org/${name}/-/${name.replace(/^@[^/]+\//, '')}-${version}.tgz`;

// `npm ls --all --json` (npm 9.2, Node 18) for a project depending on chalk@4, commander and @babel/runtime.
const TREE = JSON.stringify(
  {
    version: '1.0.0',
    name: 'word-freq',
    dependencies: {
      '@babel/runtime': {
        version: '7.23.2',
        resolved: registry('@babel/runtime', '7.23.2'),
        overridden: false,
        dependencies: {
          'regenerator-runtime': { version: '0.14.0', resolved: registry('regenerator-runtime', '0.14.0'), overridden: false },
        },
      },
      chalk: {
        version: '4.1.2',
        resolved: registry('chalk', '4.1.2'),
        overridden: false,
        dependencies: {
          'ansi-styles': {
            version: '4.3.0',
            resolved: registry('ansi-styles', '4.3.0'),
            overridden: false,
            dependencies: {
              'color-convert': {
                version: '2.0.1',
                resolved: registry('color-convert', '2.0.1'),
                overridden: false,
                dependencies: { 'color-name': { version: '1.1.4', resolved: registry('color-name', '1.1.4'), overridden: false } },
              },
            },
          },
          'supports-color': {
            version: '7.2.0',
            resolved: registry('supports-color', '7.2.0'),
            overridden: false,
            dependencies: { 'has-flag': { version: '4.0.0', resolved: registry('has-flag', '4.0.0'), overridden: false } },
          },
        },
      },
      commander: { version: '11.1.0', resolved: registry('commander', '11.1.0'), overridden: false },
      debug: {
        version: '4.3.4',
        resolved: registry('debug', '4.3.4'),
        overridden: false,
        dependencies: { ms: { version: '2.1.2', resolved: registry('ms', '2.1.2'), overridden: false } },
      },
      'send-lite': {
        version: '1.0.0',
        resolved: registry('send-lite', '1.0.0'),
        overridden: false,
        dependencies: {
          // nested older copies: the same names again
          debug: {
            version: '2.6.9',
            resolved: registry('debug', '2.6.9'),
            overridden: false,
            dependencies: { ms: { version: '2.0.0', resolved: registry('ms', '2.0.0'), overridden: false } },
          },
        },
      },
    },
  },
  null,
  2,
);

describe('parseNpmLs', () => {
  it('returns every package of the tree, sorted and unique, without the root', () => {
    expect(parseNpmLs(TREE)).toEqual([
      '@babel/runtime',
      'ansi-styles',
      'chalk',
      'color-convert',
      'color-name',
      'commander',
      'debug',
      'has-flag',
      'ms',
      'regenerator-runtime',
      'send-lite',
      'supports-color',
    ]);
  });

  it('leaves out missing entries, keeps extraneous and invalid ones, and ignores problems', () => {
    // What npm 9 prints (and exits 1 with) when package.json changed after the install.
    const withProblems = `{
  "version": "1.0.0",
  "name": "word-freq",
  "problems": [
    "missing: lodash@^4.17.21, required by word-freq@1.0.0",
    "extraneous: left-pad@1.3.0 /work/node_modules/left-pad",
    "invalid: commander@9.5.0 /work/node_modules/commander"
  ],
  "dependencies": {
    "commander": {
      "version": "9.5.0",
      "resolved": "https://registry.npmjs.org/commander/-/commander-9.5.0.tgz",
      "overridden": false,
      "invalid": "\\"^11.0.0\\" from the root project",
      "problems": ["invalid: commander@9.5.0 /work/node_modules/commander"]
    },
    "left-pad": {
      "version": "1.3.0",
      "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",
      "overridden": false,
      "extraneous": true,
      "problems": ["extraneous: left-pad@1.3.0 /work/node_modules/left-pad"]
    },
    "lodash": {
      "required": "^4.17.21",
      "missing": true,
      "problems": ["missing: lodash@^4.17.21, required by word-freq@1.0.0"]
    }
  },
  "error": {
    "code": "ELSPROBLEMS",
    "summary": "missing: lodash@^4.17.21, required by word-freq@1.0.0\\ninvalid: commander@9.5.0 /work/node_modules/commander",
    "detail": ""
  }
}
`;
    expect(parseNpmLs(withProblems)).toEqual(['commander', 'left-pad']);
  });

  it('leaves out optional platform packages npm skipped, which npm 9 prints as {}', () => {
    // `npm ls --all --json` (npm 9.8, Node 18, linux-x64 glibc) for a project depending on sharp@0.33.2:
    // sharp's optional prebuilt binaries for other platforms were not installed, and npm lists each as {}.
    const v = (name: string, version: string) => `"version": "${version}",\n      "resolved": "${registry(name, version)}",\n      "overridden": false`;
    const skipped = [
      '@img/sharp-darwin-arm64', '@img/sharp-darwin-x64', '@img/sharp-libvips-darwin-arm64', '@img/sharp-libvips-darwin-x64',
      '@img/sharp-libvips-linux-arm', '@img/sharp-libvips-linux-arm64', '@img/sharp-libvips-linux-s390x',
      '@img/sharp-libvips-linuxmusl-arm64', '@img/sharp-libvips-linuxmusl-x64', '@img/sharp-linux-arm', '@img/sharp-linux-arm64',
      '@img/sharp-linux-s390x', '@img/sharp-linuxmusl-arm64', '@img/sharp-linuxmusl-x64', '@img/sharp-wasm32',
      '@img/sharp-win32-ia32', '@img/sharp-win32-x64',
    ];
    const text = `{
  "version": "1.0.0",
  "name": "thumbnailer",
  "dependencies": {
    "sharp": {
      ${v('sharp', '0.33.2')},
      "dependencies": {
${skipped.filter((n) => n < '@img/sharp-libvips-linux-x64').map((n) => `        "${n}": {},`).join('\n')}
        "@img/sharp-libvips-linux-x64": {
          ${v('@img/sharp-libvips-linux-x64', '1.0.1')}
        },
${skipped.filter((n) => n > '@img/sharp-libvips-linux-x64' && n < '@img/sharp-linux-x64').map((n) => `        "${n}": {},`).join('\n')}
        "@img/sharp-linux-x64": {
          ${v('@img/sharp-linux-x64', '0.33.2')},
          "dependencies": {
            "@img/sharp-libvips-linux-x64": {
              ${v('@img/sharp-libvips-linux-x64', '1.0.1')}
            }
          }
        },
${skipped.filter((n) => n > '@img/sharp-linux-x64').map((n) => `        "${n}": {},`).join('\n')}
        "color": {
          ${v('color', '4.2.3')},
          "dependencies": {
            "color-convert": {
              ${v('color-convert', '2.0.1')},
              "dependencies": { "color-name": { ${v('color-name', '1.1.4')} } }
            },
            "color-string": {
              ${v('color-string', '1.9.1')},
              "dependencies": {
                "color-name": { ${v('color-name', '1.1.4')} },
                "simple-swizzle": {
                  ${v('simple-swizzle', '0.2.2')},
                  "dependencies": { "is-arrayish": { ${v('is-arrayish', '0.3.2')} } }
                }
              }
            }
          }
        },
        "detect-libc": { ${v('detect-libc', '2.0.2')} },
        "semver": { ${v('semver', '7.6.0')} }
      }
    }
  }
}
`;
    expect(JSON.parse(text).dependencies.sharp.dependencies['@img/sharp-win32-x64']).toEqual({});
    expect(parseNpmLs(text)).toEqual([
      '@img/sharp-libvips-linux-x64',
      '@img/sharp-linux-x64',
      'color',
      'color-convert',
      'color-name',
      'color-string',
      'detect-libc',
      'is-arrayish',
      'semver',
      'sharp',
      'simple-swizzle',
    ]);
  });

  it('is empty for a project without dependencies and for the runner\'s placeholder', () => {
    expect(parseNpmLs('{\n  "version": "1.0.0",\n  "name": "hello"\n}\n')).toEqual([]);
    expect(parseNpmLs('{}')).toEqual([]);
    expect(parseNpmLs('{"name": "hello", "dependencies": {}}')).toEqual([]);
  });

  it('skips warnings printed before the JSON', () => {
    const text = 'npm WARN config production Use `--omit=dev` instead.\n{"name":"x","dependencies":{"uuid":{"version":"9.0.1"}}}\n';
    expect(parseNpmLs(text)).toEqual(['uuid']);
  });

  it('throws a clear error for output that is not a JSON object', () => {
    expect(() => parseNpmLs('npm ERR! code ELSPROBLEMS\nnpm ERR! missing: lodash@^4.17.21')).toThrow(/npm ls output is not a JSON object/);
    expect(() => parseNpmLs('')).toThrow(/npm ls --all --json/);
    expect(() => parseNpmLs('["a"]')).toThrow(/not a JSON object/);
    expect(() => parseNpmLs('{"name": "x", "dependencies": {')).toThrow(/not a JSON object/);
  });
});
