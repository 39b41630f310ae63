import { ManifestError, parseRequirements, PythonRequirement } from '../../../src/ecosystems/python/requirements';
import { manifestError } from '../../helpers/manifestError';

const parse = (text: string, files: Record<string, string> = {}, fileName = 'requirements.txt') =>
  parseRequirements(text, { fileName, readInclude: (path) => files[path] });
const names = (text: string, files: Record<string, string> = {}, fileName = 'requirements.txt') =>
  parse(text, files, fileName).dependencies.map((d) => d.name);
const only = (line: string): PythonRequirement => {
  const { dependencies } = parse(line);
  expect(dependencies).toHaveLength(1);
  return dependencies[0];
};

describe('parseRequirements: single requirements', () => {
  it('parses a bare name', () => {
    expect(only('requests')).toEqual({
      name: 'requests', rawName: 'requests', extras: [], specifier: null, marker: null, url: null, editable: false,
      source: { file: 'requirements.txt', line: 1 },
    });
  });

  it.each([
    ['numpy==1.26.2', '==1.26.2'],
    ['pandas>=2.0', '>=2.0'],
    ['SQLAlchemy~=2.0.23', '~=2.0.23'],
    ['requests!=2.30.0', '!=2.30.0'],
    ['torch===2.1.0+cpu', '===2.1.0+cpu'],
    ['torch==2.1.0+cpu', '==2.1.0+cpu'],
    ['pydantic<3', '<3'],
    ['openai>1.0', '>1.0'],
    ['Django<=4.2.8', '<=4.2.8'],
    ['pydantic>=2.5,<3', '>=2.5,<3'],
    ['Django >= 3.2 , < 4.0', '>=3.2,<4.0'],
    ['numpy == 1.26.*', '==1.26.*'],
    ['celery>=5.3.0rc1', '>=5.3.0rc1'],
    ['black==23.12.1.post1', '==23.12.1.post1'],
    ['jax==0.4.20.dev20231101', '==0.4.20.dev20231101'],
    ['tensorflow>=2.15.0,!=2.15.1,<2.16', '>=2.15.0,!=2.15.1,<2.16'],
    ['setuptools==1!69.0', '==1!69.0'],
    ['pytz==2023.3.post1', '==2023.3.post1'],
  ])('%s has specifier %s', (line, specifier) => {
    expect(only(line).specifier).toBe(specifier);
  });

  it('normalises names and keeps the raw spelling', () => {
    const r = only('Flask_SQLAlchemy==3.1.1');
    expect(r.name).toBe('flask-sqlalchemy');
    expect(r.rawName).toBe('Flask_SQLAlchemy');
    expect(only('zope.interface>=6').name).toBe('zope-interface');
    expect(only('PyYAML==6.0.1').name).toBe('pyyaml');
  });

  it('parses extras, normalised', () => {
    expect(only('uvicorn[standard]>=0.24.0')).toMatchObject({ name: 'uvicorn', extras: ['standard'], specifier: '>=0.24.0' });
    expect(only('celery[redis,msgpack]==5.3.6').extras).toEqual(['redis', 'msgpack']);
    expect(only('apache-airflow[ postgres , Google_Auth ]').extras).toEqual(['postgres', 'google-auth']);
    expect(only('psycopg[c]==3.1.13').extras).toEqual(['c']);
    expect(only('requests[]').extras).toEqual([]);
    expect(only('Werkzeug [watchdog] == 3.0.1')).toMatchObject({ name: 'werkzeug', extras: ['watchdog'], specifier: '==3.0.1' });
  });

  it('parses environment markers', () => {
    expect(only('pywin32==306 ; sys_platform == "win32"')).toMatchObject({
      name: 'pywin32', specifier: '==306', marker: 'sys_platform == "win32"',
    });
    expect(only('numpy>=1.24; python_version>="3.9"').marker).toBe('python_version>="3.9"');
    expect(only('importlib-metadata>=4.6; python_version < "3.10"').marker).toBe('python_version < "3.10"');
    expect(only("uvloop==0.19.0; sys_platform != 'win32' and implementation_name == 'cpython'").marker).toBe(
      "sys_platform != 'win32' and implementation_name == 'cpython'",
    );
    expect(only('tomli ; python_version < "3.11"')).toMatchObject({ name: 'tomli', specifier: null, marker: 'python_version < "3.11"' });
    expect(only('black[d]>=23;platform_machine!="arm64"')).toMatchObject({ extras: ['d'], specifier: '>=23', marker: 'platform_machine!="arm64"' });
  });

  it('accepts old-style parenthesised versions', () => {
    expect(only('requests (>=2.0)')).toMatchObject({ name: 'requests', specifier: '>=2.0' });
    expect(only('six (>=1.10, <2)').specifier).toBe('>=1.10,<2');
    expect(only('docutils[foo] (==0.20.1) ; python_version >= "3.7"')).toMatchObject({
      extras: ['foo'], specifier: '==0.20.1', marker: 'python_version >= "3.7"',
    });
  });

  it('parses direct references', () => {
    expect(only('pip @ https://github.com/pypa/pip/archive/22.0.2.zip')).toMatchObject({
      name: 'pip', url: 'https://github.com/pypa/pip/archive/22.0.2.zip', specifier: null, editable: false,
    });
    expect(only('mylib @ file:///opt/libs/mylib').url).toBe('file:///opt/libs/mylib');
    expect(only('requests[socks] @ git+https://github.com/psf/requests.git@v2.31.0 ; python_version >= "3.8"')).toMatchObject({
      name: 'requests', extras: ['socks'], url: 'git+https://github.com/psf/requests.git@v2.31.0', marker: 'python_version >= "3.8"',
    });
    expect(
      only('en-core-web-sm@https://github.com/explosion/spacy-models/releases/download/en_core_web_sm-3.7.1/en_core_web_sm-3.7.1-py3-none-any.whl'),
    ).toMatchObject({ name: 'en-core-web-sm' });
  });
});

describe('parseRequirements: file shapes', () => {
  it('parses pip-compile output with hashes and "# via" comments', () => {
    const text = `#
# This file is autogenerated by pip-compile with Python 3.11
# by the following command:
#
#    pip-compile --generate-hashes requirements.in
#
asgiref==3.7.2 \\
    --hash=sha256:89b2ef2247e3b562a16eef663bc0e2e703ec6468e2fa8a5cd61cd449786d4f6e \\
    --hash=sha256:9e0ce3aa93a819ba5b45120216b23878cf6e8525eb3848653452b4192b92afed
    # via django
django==4.2.7 \\
    --hash=sha256:8e0f1c2c2786b5c0e39fe1afce24c926040fad47c8ea8ad30aaf1188df29fc41 \\
    --hash=sha256:e1d37c51ad26186de355cbcec16613ebdabfa9689bbade9c538835205a8abbe9
    # via -r requirements.in
sqlparse==0.4.4 \\
    --hash=sha256:5430a4fe2ac7d0f93e66f1efc6e1338a41884b7ddf2a350cedd20ccc4d9d28f3 \\
    --hash=sha256:d446183e84b8349fa3061f0fe7f06ca94ba65b426946ffebe6e3e8295332420c
    # via django
typing-extensions==4.8.0 \\
    --hash=sha256:8f92fc8806f9a6b641eaa5318da32b44d401efaac0f6678c9bc448ba3605faa0
    # via
    #   asgiref
    #   django
`;
    const { dependencies, warnings } = parse(text);
    expect(dependencies.map((d) => [d.name, d.specifier, d.source.line])).toEqual([
      ['asgiref', '==3.7.2', 7],
      ['django', '==4.2.7', 11],
      ['sqlparse', '==0.4.4', 15],
      ['typing-extensions', '==4.8.0', 19],
    ]);
    expect(warnings).toEqual([]);
  });

  it('parses pip-compile output without hashes', () => {
    const text = `#
# This file is autogenerated by pip-compile with Python 3.12
# by the following command:
#
#    pip-compile
#
certifi==2023.11.17
    # via requests
charset-normalizer==3.3.2
    # via requests
idna==3.6
    # via requests
requests==2.31.0
    # via -r requirements.in
urllib3==2.1.0
    # via requests
`;
    expect(names(text)).toEqual(['certifi', 'charset-normalizer', 'idna', 'requests', 'urllib3']);
  });

  it('parses poetry export output (markers before hashes)', () => {
    const text = `certifi==2023.7.22 ; python_version >= "3.11" and python_version < "4.0" \\
    --hash=sha256:539cc1d13202e33ca466e88b2807e29f4c13049d6d87031a3c110744495cb082 \\
    --hash=sha256:92d6037539857d8206b8f6ae472e8b77db8058fec5937a1ef3f54304089edbb9
charset-normalizer==3.3.0 ; python_version >= "3.11" and python_version < "4.0" \\
    --hash=sha256:02673e456dc5ab13659f85196c534dc596d4ef260e4d86e856c3b2773ce09843
colorama==0.4.6 ; python_version >= "3.11" and python_version < "4.0" and platform_system == "Windows" \\
    --hash=sha256:08695f5cb7ed6e0531a20572697297273c47b8cae5a63ffc6d6ed5c201be6e44 \\
    --hash=sha256:4f1d9991f5acc0ca119f9d443620b77f9d6b33703e51011c16baf57afb285fc6
requests==2.31.0 ; python_version >= "3.11" and python_version < "4.0" \\
    --hash=sha256:58cd2187c01e70e6e26505bca751777aa9f2ee0b7f4300988b709f44e013003f
`;
    const { dependencies } = parse(text);
    expect(dependencies.map((d) => d.name)).toEqual(['certifi', 'charset-normalizer', 'colorama', 'requests']);
    expect(dependencies[2]).toMatchObject({
      specifier: '==0.4.6',
      marker: 'python_version >= "3.11" and python_version < "4.0" and platform_system == "Windows"',
      source: { file: 'requirements.txt', line: 6 },
    });
  });

  it('parses a cookiecutter-django style tree of -r includes', () => {
    const files = {
      'requirements/base.txt': `python-slugify==8.0.1  # https://github.com/un33k/python-slugify
Pillow==10.1.0  # https://github.com/python-pillow/Pillow
argon2-cffi==23.1.0  # https://github.com/hynek/argon2_cffi
redis==5.0.1  # https://github.com/redis/redis-py
hiredis==2.2.3  # https://github.com/redis/hiredis-py
celery==5.3.6  # pyup: < 6.0  # https://github.com/celery/celery

# Django
# ------------------------------------------------------------------------------
django==4.2.8  # pyup: < 5.0  # https://www.djangoproject.com/
django-environ==0.11.2  # https://github.com/joke2k/django-environ
djangorestframework==3.14.0  # https://github.com/encode/django-rest-framework
`,
      'requirements/production.txt': `# PRECAUTION: avoid production dependencies that aren't in development

-r base.txt

gunicorn==21.2.0  # https://github.com/benoitc/gunicorn
psycopg[c]==3.1.13  # https://github.com/psycopg/psycopg
sentry-sdk==1.38.0  # https://github.com/getsentry/sentry-python
django-anymail[mailgun]==10.2  # https://github.com/anymail/django-anymail
`,
    };
    const local = `-r production.txt

Werkzeug[watchdog]==3.0.1 # https://github.com/pallets/werkzeug
ipdb==0.13.13  # https://github.com/gotcha/ipdb
psycopg[binary]==3.1.13  # https://github.com/psycopg/psycopg
watchfiles==0.21.0  # https://github.com/samuelcolvin/watchfiles
`;
    const { dependencies, warnings } = parse(local, files, 'requirements/local.txt');
    expect(dependencies.map((d) => d.name)).toEqual([
      'python-slugify', 'pillow', 'argon2-cffi', 'redis', 'hiredis', 'celery', 'django', 'django-environ',
      'djangorestframework', 'gunicorn', 'psycopg', 'sentry-sdk', 'django-anymail', 'werkzeug', 'ipdb', 'watchfiles',
    ]);
    expect(warnings).toEqual([]);
    // First occurrence wins: psycopg comes from production.txt with extra "c".
    expect(dependencies.find((d) => d.name === 'psycopg')).toMatchObject({
      extras: ['c'], source: { file: 'requirements/production.txt', line: 6 },
    });
    expect(dependencies.find((d) => d.name === 'django')?.source).toEqual({ file: 'requirements/base.txt', line: 10 });
  });

  it('ignores global option lines', () => {
    const text = `--index-url https://pypi.org/simple
--extra-index-url https://download.pytorch.org/whl/cpu
-f https://data.pyg.org/whl/torch-2.1.0+cpu.html
--find-links=./wheels
--trusted-host download.pytorch.org
--pre
--prefer-binary
--only-binary :all:
--no-binary psycopg2
--require-hashes
--use-feature=truststore
--no-index
-i https://mirror.example/simple
-ihttps://mirror2.example/simple
torch==2.1.0+cpu
torchvision==0.16.0+cpu
`;
    const { dependencies, warnings } = parse(text);
    expect(dependencies.map((d) => [d.name, d.source.line])).toEqual([['torch', 15], ['torchvision', 16]]);
    expect(warnings).toEqual([]);
  });

  it('handles comments, blank lines, CRLF, a BOM and tabs', () => {
    const text = '\uFEFF# Core\r\n\r\nflask==3.0.0   # web framework\r\n\t\r\n  gunicorn  \r\n#commented-out==1.0\r\nrequests#not-a-comment-start\r\n';
    // pip treats `#` as a comment only after whitespace, so the last line is an invalid requirement.
    const err = manifestError(() => parse(text));
    expect(err.line).toBe(7);
    expect(names(text.replace('requests#not-a-comment-start', 'requests'))).toEqual(['flask', 'gunicorn', 'requests']);
  });

  it('joins backslash continuations and reports the first physical line', () => {
    const text = 'flask==3.0.0\nrequests \\\n  >=2.31 \\\n  ; python_version > "3.7"\npandas\n';
    const { dependencies } = parse(text);
    expect(dependencies.map((d) => [d.name, d.specifier, d.marker, d.source.line])).toEqual([
      ['flask', '==3.0.0', null, 1],
      ['requests', '>=2.31', 'python_version > "3.7"', 2],
      ['pandas', null, null, 5],
    ]);
  });

  it('keeps a trailing continuation at end of file and a comment ending in a backslash', () => {
    expect(names('numpy \\')).toEqual(['numpy']);
    expect(names('scipy # a comment \\\npandas')).toEqual(['scipy', 'pandas']);
  });

  it('deduplicates by normalised name, first occurrence wins', () => {
    const { dependencies } = parse('Django==4.2\nnumpy\ndjango>=5\nNumPy==1.26\npython_dateutil\npython-dateutil==2.8.2\n');
    expect(dependencies.map((d) => [d.name, d.specifier])).toEqual([
      ['django', '==4.2'],
      ['numpy', null],
      ['python-dateutil', null],
    ]);
  });

  it('parses a typical agent-written manifest', () => {
    const text = `# Requirements for the data pipeline
pandas>=2.0.0
numpy>=1.24.0
matplotlib>=3.7.0
seaborn>=0.12.0
scikit-learn>=1.3.0
python-dotenv>=1.0.0
beautifulsoup4>=4.12.0
lxml
tqdm
`;
    expect(names(text)).toEqual([
      'pandas', 'numpy', 'matplotlib', 'seaborn', 'scikit-learn', 'python-dotenv', 'beautifulsoup4', 'lxml', 'tqdm',
    ]);
  });

  it('returns nothing for an empty or comment-only file', () => {
    expect(parse('')).toEqual({ dependencies: [], warnings: [] });
    expect(parse('# no third-party dependencies needed\n# only the standard library\n')).toEqual({ dependencies: [], warnings: [] });
  });
});

describe('parseRequirements: locations (editables, URLs, archives, wheels)', () => {
  it('takes editable VCS names from #egg=', () => {
    const text = `-e git+https://github.com/django/django.git@stable/4.2.x#egg=Django
-e git+ssh://git@github.com/org/private-lib.git@v1.2.0#egg=private_lib&subdirectory=python
--editable=git+https://github.com/psf/black.git#egg=black[jupyter]
--editable git+https://gitlab.com/org/tool.git@abc123#subdirectory=pkg&egg=org-tool
`;
    const { dependencies, warnings } = parse(text);
    expect(dependencies.map((d) => [d.name, d.rawName, d.editable, d.extras])).toEqual([
      ['django', 'Django', true, []],
      ['private-lib', 'private_lib', true, []],
      ['black', 'black', true, ['jupyter']],
      ['org-tool', 'org-tool', true, []],
    ]);
    expect(dependencies[0].url).toBe('git+https://github.com/django/django.git@stable/4.2.x#egg=Django');
    expect(warnings).toEqual([]);
  });

  it('warns about editables without a name and skips them', () => {
    const { dependencies, warnings } = parse('-e .\n-e ./libs/shared\n-e .[dev]\nflask\n');
    expect(dependencies.map((d) => d.name)).toEqual(['flask']);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/^requirements\.txt:1: /);
    expect(warnings[1]).toMatch(/^requirements\.txt:2: .*\.\/libs\/shared/);
  });

  it('takes bare URL names from #egg= and skips URLs without one', () => {
    const text = `git+https://github.com/huggingface/transformers.git@main#egg=transformers
git+https://github.com/openai/whisper.git
https://files.example.org/packages/source/f/foo/foo-1.0.tar.gz#egg=foo
https://github.com/user/repo/archive/refs/heads/main.zip
hg+https://hg.example.org/proj#egg=Proj ; python_version >= "3.8"
`;
    const { dependencies, warnings } = parse(text);
    expect(dependencies.map((d) => [d.name, d.url, d.marker, d.editable])).toEqual([
      ['transformers', 'git+https://github.com/huggingface/transformers.git@main#egg=transformers', null, false],
      ['foo', 'https://files.example.org/packages/source/f/foo/foo-1.0.tar.gz#egg=foo', null, false],
      ['proj', 'hg+https://hg.example.org/proj#egg=Proj', 'python_version >= "3.8"', false],
    ]);
    expect(warnings.map((w) => w.split(':')[1])).toEqual(['2', '4']);
  });

  it('takes wheel names from the wheel file name', () => {
    const text = `./dist/foo_bar-1.0-py3-none-any.whl
wheels/numpy-1.26.2-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl
https://download.pytorch.org/whl/cpu/torch-2.1.0%2Bcpu-cp311-cp311-linux_x86_64.whl
https://github.com/explosion/spacy-models/releases/download/en_core_web_sm-3.7.1/en_core_web_sm-3.7.1-py3-none-any.whl
/opt/wheelhouse/Pillow-10.1.0-1-cp311-cp311-manylinux_2_28_x86_64.whl ; sys_platform == "linux"
tensorflow_cpu-2.15.0-cp311-cp311-manylinux_2_17_x86_64.whl
`;
    const { dependencies } = parse(text);
    expect(dependencies.map((d) => [d.name, d.rawName])).toEqual([
      ['foo-bar', 'foo_bar'],
      ['numpy', 'numpy'],
      ['torch', 'torch'],
      ['en-core-web-sm', 'en_core_web_sm'],
      ['pillow', 'Pillow'],
      ['tensorflow-cpu', 'tensorflow_cpu'],
    ]);
    expect(dependencies[4].marker).toBe('sys_platform == "linux"');
    expect(dependencies[0].url).toBe('./dist/foo_bar-1.0-py3-none-any.whl');
  });

  it('skips local source archives and directories without #egg= with a warning', () => {
    const { dependencies, warnings } = parse('./vendor/mylib-0.3.tar.gz\n.\n../shared\nmylib-0.3.zip\n');
    expect(dependencies).toEqual([]);
    expect(warnings).toHaveLength(4);
  });
});

describe('parseRequirements: includes and constraints', () => {
  it('resolves -r relative to the including file, in every spelling', () => {
    const files = {
      'requirements/base.txt': 'django\n',
      'requirements/test.txt': 'pytest\n',
      'requirements/lint.txt': 'ruff\n',
      'requirements/docs.txt': 'sphinx\n',
      'requirements.txt': 'requests\n',
    };
    const dev = '-r base.txt\n-rtest.txt\n--requirement lint.txt\n--requirement=docs.txt\n-r ../requirements.txt\n';
    const seen: string[] = [];
    const result = parseRequirements(dev, {
      fileName: 'requirements/dev.txt',
      readInclude: (path) => {
        seen.push(path);
        return files[path as keyof typeof files];
      },
    });
    expect(result.dependencies.map((d) => [d.name, d.source.file])).toEqual([
      ['django', 'requirements/base.txt'],
      ['pytest', 'requirements/test.txt'],
      ['ruff', 'requirements/lint.txt'],
      ['sphinx', 'requirements/docs.txt'],
      ['requests', 'requirements.txt'],
    ]);
    expect(seen).toEqual(['requirements/base.txt', 'requirements/test.txt', 'requirements/lint.txt', 'requirements/docs.txt', 'requirements.txt']);
  });

  it('keeps include order in the dependency order', () => {
    expect(names('flask\n-r extra.txt\nrequests\n', { 'extra.txt': 'numpy\nflask\n' })).toEqual(['flask', 'numpy', 'requests']);
  });

  it('reads -c files but adds none of their dependencies', () => {
    const files = { 'constraints.txt': 'urllib3<2\nnumpy==1.26.2\n' };
    expect(parse('-c constraints.txt\nrequests\n', files)).toEqual({
      dependencies: [expect.objectContaining({ name: 'requests' })],
      warnings: [],
    });
    expect(names('--constraint constraints.txt\nrequests\n', files)).toEqual(['requests']);
    expect(names('--constraint=constraints.txt\n', files)).toEqual([]);
  });

  it('does not loop on include cycles', () => {
    const files = { 'a.txt': '-r b.txt\nnumpy\n', 'b.txt': '-r a.txt\n-r requirements.txt\npandas\n' };
    const { dependencies, warnings } = parse('-r a.txt\nflask\n', files);
    expect(dependencies.map((d) => d.name)).toEqual(['pandas', 'numpy', 'flask']);
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings.join('\n')).toMatch(/cycle/);
  });

  it('includes a file reached twice (diamond) once and without a warning', () => {
    const files = { 'base.txt': 'django\n', 'test.txt': '-r base.txt\npytest\n' };
    expect(parse('-r base.txt\n-r test.txt\n', files)).toEqual({
      dependencies: [expect.objectContaining({ name: 'django' }), expect.objectContaining({ name: 'pytest' })],
      warnings: [],
    });
  });

  it('fails on a missing include, naming the including file and line', () => {
    const err = manifestError(() => parse('-r base.txt\n', { 'dev.txt': '\n\n-r missing.txt\n' }, 'requirements.txt'));
    expect(err.file).toBe('requirements.txt');
    expect(err.line).toBe(1);
    const nested = manifestError(() => parse('flask\n-r dev.txt\n', { 'dev.txt': '\n\n-r missing.txt\n' }));
    expect(nested.file).toBe('dev.txt');
    expect(nested.line).toBe(3);
    expect(nested.message).toMatch(/^dev\.txt:3: .*missing\.txt/);
  });

  it('fails on a missing constraints file', () => {
    expect(manifestError(() => parse('requests\n-c constraints.txt\n')).line).toBe(2);
  });

  it('treats every include as missing when no reader is given', () => {
    expect(() => parseRequirements('-r base.txt\n', { fileName: 'requirements.txt' })).toThrow(ManifestError);
  });

  it('reports errors inside an included file against that file', () => {
    const err = manifestError(() => parse('-r base.txt\n', { 'base.txt': 'django\nnumpy=1.26\n' }));
    expect([err.file, err.line]).toEqual(['base.txt', 2]);
  });

  it('does not follow remote requirement files', () => {
    const { dependencies, warnings } = parse('-r https://example.org/requirements.txt\nflask\n');
    expect(dependencies.map((d) => d.name)).toEqual(['flask']);
    expect(warnings).toHaveLength(1);
  });
});

describe('parseRequirements: invalid lines', () => {
  it.each([
    ['numpy=1.26.0', 2],
    ['pandas==', 2],
    ['flask 2.0', 2],
    ['requests>=2.0,', 2],
    ['beautifulsoup4 bs4', 2],
    ['scipy[sparse', 2],
    ['torch>=2.0+cpu', 2],
    ['numpy==latest', 2],
    ['tensorflow>=2.x', 2],
    ['requests ; ', 2],
    ['foo @ ', 2],
    ['foo @ not a url', 2],
    ['>=1.0', 2],
    ['-r', 2],
    ['-e', 2],
    ['-e git+https://github.com/x/y.git#egg=bad=name', 2],
  ])('%j throws ManifestError at its line', (bad, line) => {
    const err = manifestError(() => parse(`flask\n${bad}\nrequests\n`));
    expect(err.file).toBe('requirements.txt');
    expect(err.line).toBe(line);
    expect(err.message).toMatch(new RegExp(`^requirements\\.txt:${line}: `));
  });
});

describe('parseRequirements: warnings', () => {
  it('warns about unknown options and options misplaced after a requirement', () => {
    const { dependencies, warnings } = parse('--no-deps\nflask==3.0 --index-url https://x\nrequests --hash=sha256:abc --hash sha256:def\n');
    expect(dependencies.map((d) => [d.name, d.specifier])).toEqual([['flask', '==3.0'], ['requests', null]]);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^requirements\.txt:1: .*--no-deps/);
    expect(warnings[1]).toMatch(/^requirements\.txt:2: .*--index-url/);
  });
});

describe('parseRequirements: odd but real lines', () => {
  it('reads an editable followed by a marker, which pip ignores, with one warning', () => {
    const { dependencies, warnings } = parse('-e git+https://github.com/a/b.git#egg=b ; python_version >= "3.8"\n');
    expect(dependencies[0]).toMatchObject({ name: 'b', editable: true, marker: null });
    expect(warnings).toEqual(['requirements.txt:1: "; python_version >= "3.8"" after the options is ignored']);
  });

  it('takes quoted include paths', () => {
    expect(names('-r "base.txt"\n', { 'base.txt': 'six\n' })).toEqual(['six']);
  });

  it('reads options glued with = and spaced, on one line', () => {
    expect(parse('--pre --index-url=https://x/simple --trusted-host x\nfoo\n')).toEqual({
      dependencies: [expect.objectContaining({ name: 'foo' })],
      warnings: [],
    });
  });

  it('allows a top-level file name with ./ and detects a self include', () => {
    const { dependencies, warnings } = parseRequirements('-r requirements.txt\nflask\n', {
      fileName: './requirements.txt',
      readInclude: () => 'never read\n',
    });
    expect(dependencies.map((d) => d.name)).toEqual(['flask']);
    expect(warnings.join()).toMatch(/cycle/);
  });

  it('parses lone CR line endings (old Mac files)', () => {
    expect(names('numpy\rpandas\r')).toEqual(['numpy', 'pandas']);
  });
});

describe('parseRequirements: includes stay inside the project', () => {
  const SECRET = 'root:x:0:0:SECRET-CONTENT';
  it.each([
    ['-r /etc/passwd', /an absolute path is outside the project/],
    ['-c /etc/shadow', /an absolute path is outside the project/],
    ['-r /proc/self/environ', /an absolute path is outside the project/],
    ['-r ../../../../etc/passwd', /leaves the project's folder/],
    ['-r sub/../../etc/passwd', /leaves the project's folder/],
    ['--requirement=file:/etc/passwd', /an absolute path is outside the project/],
    ['-r C:\\Windows\\win.ini', /an absolute path is outside the project/],
    ['-r .', /names the project's folder/],
  ])('%s is refused with a warning naming the line; the target is never read', (line, reason) => {
    const asked: string[] = [];
    const { dependencies, warnings } = parseRequirements(`flask\n${line}\nrequests\n`, {
      fileName: 'requirements.txt',
      readInclude: (path) => {
        asked.push(path);
        return SECRET;
      },
    });
    expect(asked).toEqual([]);
    expect(dependencies.map((d) => d.name)).toEqual(['flask', 'requests']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^requirements\.txt:2: -[rc] /);
    expect(warnings[0]).toMatch(reason);
    expect(warnings[0]).not.toContain('SECRET');
  });

  it('refuses an escape from a nested include, against that file', () => {
    const files = { 'reqs/dev.txt': 'pytest\n-r ../../outside.txt\n', '../outside.txt': 'SECRET\n' };
    const { dependencies, warnings } = parse('-r reqs/dev.txt\n', files);
    expect(dependencies.map((d) => d.name)).toEqual(['pytest']);
    expect(warnings).toEqual([expect.stringMatching(/^reqs\/dev\.txt:2: -r \.\.\/\.\.\/outside\.txt: leaves the project's folder/)]);
  });

  it('still follows ../ that stays inside the root', () => {
    expect(names('-r ../requirements.txt\n', { 'requirements.txt': 'six\n' }, 'reqs/dev.txt')).toEqual(['six']);
  });
});

describe('parseRequirements: quoted text is capped', () => {
  const BIG = 'x'.repeat(20_000_000);
  it.each([
    ['an include path', `-r ${BIG}\n`],
    ['a continued option', `--${'y'.repeat(10)}\\\n${BIG}\n`],
    ['a continued requirement', `requests==\\\n1${BIG}\n`],
    ['a location', `./${BIG}\n`],
    ['stray words', `-e git+https://x/y#egg=y ${BIG}\n`],
  ])('%s of 20 MB makes a message of a few KB at most', (_, text) => {
    let messages: string[];
    try {
      messages = parse(text).warnings;
    } catch (e) {
      expect(e).toBeInstanceOf(ManifestError);
      messages = [(e as Error).message];
    }
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) {
      expect(m.length).toBeLessThan(3_000);
      expect(m).toMatch(/… \(\d+ more characters\)/);
    }
  });
});
