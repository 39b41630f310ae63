import { loadCatalog } from '../../../src/catalog/catalog';
import { parseStudyFile, StudyFileError } from '../../../src/cli/studyFile';

const catalog = loadCatalog();

function problems(text: string): string[] {
  try {
    parseStudyFile(text, '/studies/s.yaml', catalog);
  } catch (err) {
    if (err instanceof StudyFileError) return err.problems;
    throw err;
  }
  throw new Error('expected the study file to be rejected');
}

const valid = `name: s1
agents:
  - kind: replay
    name: rec
    path: ../corpus
languages: [python]
tasks: [p_01, p_04]
`;

test('a valid file gets defaults, resolved tasks and replay paths relative to the file', () => {
  const s = parseStudyFile(valid, '/studies/s.yaml', catalog);
  expect(s).toMatchObject({ name: 's1', trials: 1, budget: 10, concurrency: 4, languages: ['python'] });
  expect(s.tasks).toEqual([
    { id: 'p_01', title: 'CSV Statistical Analyzer', domain: 'Data Processing' },
    { id: 'p_04', title: 'YAML Config Merger', domain: 'Data Processing' },
  ]);
  expect(s.agents[0]).toEqual({ kind: 'replay', name: 'rec', path: '/corpus' });
  expect(s.limits.run_timeout_s).toBe(120);
  expect(s.limits.service_grace_s).toBe(10);
});

test('"tasks: all" takes the whole catalog', () => {
  expect(parseStudyFile(valid.replace('[p_01, p_04]', 'all'), 's.yaml', catalog).tasks).toHaveLength(50);
});

test('a wrong field is named with its line and column', () => {
  const p = problems(valid.replace('languages: [python]', 'languages: [python, rust]'));
  expect(p).toEqual([expect.stringMatching(/^\/studies\/s\.yaml:6:\d+: languages\[1\]: /)]);
});

test('a missing field is reported at its parent', () => {
  const p = problems(valid.replace('    name: rec\n', ''));
  expect(p[0]).toMatch(/s\.yaml:3:\d+: agents\[0\]\.name: /);
});

test('an unknown task id names the catalog and the line', () => {
  const p = problems(valid.replace('p_04', 'p_77'));
  expect(p).toEqual([expect.stringMatching(/s\.yaml:7:\d+: tasks\[1\]: unknown task "p_77"/)]);
});

test('a budget below zero and an unknown key are both reported', () => {
  const p = problems(valid + 'budget: -1\nbugdet: 3\n');
  expect(p.some((x) => /s\.yaml:8:\d+: budget: /.test(x))).toBe(true);
  expect(p.some((x) => /unrecognized|bugdet/i.test(x))).toBe(true);
});

test('a secret in an agent spec is refused', () => {
  const p = problems(valid.replace('    path: ../corpus', '    path: ../corpus\n    api_key: sk-123'));
  expect(p.join('\n')).toMatch(/secret/);
  expect(p.join('\n')).not.toContain('sk-123');
});

test('two agents with one name are refused', () => {
  const p = problems(valid.replace('languages:', '  - kind: replay\n    name: rec\n    path: x\nlanguages:'));
  expect(p.join('\n')).toMatch(/agents\[1\]\.name: agent name "rec" is used twice/);
});

test('broken YAML is reported with its position', () => {
  expect(problems('name: [unclosed\n')[0]).toMatch(/s\.yaml:\d+:\d+: YAML: /);
});

test('tasks may be listed per language; every language needs a list', () => {
  const perLanguage = valid.replace('languages: [python]\ntasks: [p_01, p_04]', 'languages: [python, cpp]\ntasks:\n  python: [p_01]\n  cpp: [p_11, p_02]');
  const s = parseStudyFile(perLanguage, 's.yaml', catalog);
  expect(s.tasksByLanguage?.python?.map((t) => t.id)).toEqual(['p_01']);
  expect(s.tasksByLanguage?.cpp?.map((t) => t.id)).toEqual(['p_11', 'p_02']);
  const missing = problems(valid.replace('languages: [python]\ntasks: [p_01, p_04]', 'languages: [python, java]\ntasks:\n  python: [p_01]'));
  expect(missing).toEqual([expect.stringMatching(/s\.yaml:6:\d+: languages\[1\]: "tasks" lists tasks per language but none for java/)]);
  const unknown = problems(valid.replace('languages: [python]\ntasks: [p_01, p_04]', 'languages: [cpp]\ntasks:\n  cpp: [p_11, p_99]'));
  expect(unknown).toEqual([expect.stringMatching(/s\.yaml:8:\d+: tasks\.cpp\[1\]: unknown task "p_99"/)]);
});

describe('limits on sizes and counts (issue 8)', () => {
  test.each([
    ['trials: 1000000000000', /^\/studies\/s\.yaml:8:\d+: trials: at most 1,000 trials$/],
    ['budget: 1000', /s\.yaml:8:\d+: budget: at most 100 repairs/],
    ['concurrency: 100000', /s\.yaml:8:\d+: concurrency: at most 256/],
    ['limits: { cpus: 4096 }', /s\.yaml:8:\d+: limits\.cpus: at most 64 CPUs/],
    ['limits: { memory_mb: 100000000 }', /limits\.memory_mb: at most 131,072 MiB/],
    ['limits: { pids: 10000000 }', /limits\.pids: at most 32,768 processes/],
    ['limits: { disk_mb: 100 }', /limits\.disk_mb: /],
    ['limits: { disk_mb: 2000000 }', /limits\.disk_mb: at most 1,048,576 MiB/],
    ['limits: { run_timeout_s: 1000000 }', /limits\.run_timeout_s: at most 21,600 s/],
    ['limits: { service_grace_s: 601 }', /limits\.service_grace_s: at most 600 s/],
    ['limits: { service_grace_s: 0 }', /limits\.service_grace_s: /],
  ])('%s is refused, naming the field', (line, message) => {
    expect(problems(valid + line + '\n')).toEqual([expect.stringMatching(message)]);
  });

  test('disk_mb defaults to 10 GiB and may be set', () => {
    expect(parseStudyFile(valid, 's.yaml', catalog).limits.disk_mb).toBe(10240);
    expect(parseStudyFile(valid + 'limits: { disk_mb: 2048 }\n', 's.yaml', catalog).limits).toMatchObject({ disk_mb: 2048, cpus: 2 });
  });

  test('more than 100,000 instances are refused at trials, with the count', () => {
    const agents = Array.from({ length: 30 }, (_, i) => `  - { kind: replay, name: r${i}, path: x }`).join('\n');
    const big = `name: big\nagents:\n${agents}\nlanguages: [python, java, javascript, cpp]\ntasks: all\ntrials: 20\n`;
    expect(problems(big)).toEqual([expect.stringMatching(/s\.yaml:35:\d+: trials: the study has 120,000 instances .*at most 100,000/)]);
    expect(parseStudyFile(big.replace('trials: 20', 'trials: 16'), 's.yaml', catalog).trials).toBe(16);
  });

  test('more than 50 agents are refused', () => {
    const agents = Array.from({ length: 51 }, (_, i) => `  - { kind: replay, name: r${i}, path: x }`).join('\n');
    expect(problems(`name: s\nagents:\n${agents}\nlanguages: [python]\ntasks: [p_01]\n`)).toEqual([expect.stringMatching(/s\.yaml:3:\d+: agents: at most 50 agents/)]);
  });

  test('a long name, command, model or base_url is refused, naming the field', () => {
    expect(problems(valid.replace('name: s1', `name: ${'s'.repeat(65)}`))).toEqual([expect.stringMatching(/s\.yaml:1:\d+: name: at most 64 characters/)]);
    const cli = (command: string) => valid.replace('  - kind: replay\n    name: rec\n    path: ../corpus', `  - kind: cli\n    name: c\n    command: ${command}`);
    expect(problems(cli('x'.repeat(2049)))).toEqual([expect.stringMatching(/s\.yaml:5:\d+: agents\[0\]\.command: at most 2048 characters/)]);
    const openai = (url: string, model: string) =>
      valid.replace('  - kind: replay\n    name: rec\n    path: ../corpus', `  - kind: openai\n    name: o\n    base_url: ${url}\n    model: ${model}`);
    expect(problems(openai(`https://a.example/${'v'.repeat(2048)}`, 'm'))).toEqual([expect.stringMatching(/agents\[0\]\.base_url: at most 2048 characters/)]);
    expect(problems(openai('https://a.example/v1', 'm'.repeat(257)))).toEqual([expect.stringMatching(/s\.yaml:6:\d+: agents\[0\]\.model: at most 256 characters/)]);
    expect(problems(valid.replace('path: ../corpus', `path: ${'p'.repeat(1025)}`))).toEqual([expect.stringMatching(/agents\[0\]\.path: at most 1024 characters/)]);
  });

  test('a replay path that resolves too long is refused', () => {
    const deep = `/${'d'.repeat(1500)}/s.yaml`;
    expect(() => parseStudyFile(valid.replace('path: ../corpus', `path: ${'p'.repeat(1000)}`), deep, catalog)).toThrow(/agents\[0\]\.path: resolves to a path of 2502 characters \(at most 2,048\)/);
  });

  test('control characters in a string field are refused', () => {
    expect(problems(valid.replace('path: ../corpus', 'path: "../cor\\u0000pus"'))).toEqual([expect.stringMatching(/agents\[0\]\.path: must be one line of text/)]);
  });

  test('a huge task list gets a short error, not a crash', () => {
    const huge = valid.replace('tasks: [p_01, p_04]', `tasks:\n${'  - p_01\n'.repeat(100_000)}`);
    const p = problems(huge);
    expect(p).toHaveLength(21);
    expect(p[0]).toMatch(/s\.yaml:9:\d+: tasks\[1\]: task "p_01" is listed twice \(first as tasks\[0\]\)/);
    expect(p[20]).toBe('… and 99,979 more problems');
  });

  test('a text over 1 MiB is refused before it is parsed', () => {
    expect(problems(valid + '#'.repeat(1024 * 1024))).toEqual([expect.stringMatching(/at most 1,048,576 bytes \(1 MiB\)/)]);
  });
});

describe('duplicates (issue 8)', () => {
  test('a task listed twice is refused with its line (it made two instances with one id)', () => {
    expect(problems(valid.replace('[p_01, p_04]', '[p_04, p_04]'))).toEqual([expect.stringMatching(/^\/studies\/s\.yaml:7:\d+: tasks\[1\]: task "p_04" is listed twice \(first as tasks\[0\]\)$/)]);
    const perLanguage = valid.replace('languages: [python]\ntasks: [p_01, p_04]', 'languages: [cpp]\ntasks:\n  cpp: [p_11, p_02, p_11]');
    expect(problems(perLanguage)).toEqual([expect.stringMatching(/s\.yaml:8:\d+: tasks\.cpp\[2\]: task "p_11" is listed twice \(first as tasks\.cpp\[0\]\)/)]);
  });

  test('a language listed twice is refused with its line', () => {
    expect(problems(valid.replace('languages: [python]', 'languages: [python, cpp, python]'))).toEqual([
      expect.stringMatching(/s\.yaml:6:\d+: languages\[2\]: language python is listed twice \(first as languages\[0\]\)/),
    ]);
  });

  test('a language given two task lists is refused by the YAML parser', () => {
    const p = problems(valid.replace('tasks: [p_01, p_04]', 'tasks:\n  python: [p_01]\n  python: [p_02]'));
    expect(p[0]).toMatch(/s\.yaml:9:\d+: YAML: .*unique/i);
  });
});

describe('secrets in base_url and cli commands (issue 8)', () => {
  const openai = (url: string) => valid.replace('  - kind: replay\n    name: rec\n    path: ../corpus', `  - kind: openai\n    name: o\n    base_url: "${url}"\n    model: m`);
  const cli = (command: string) => valid.replace('  - kind: replay\n    name: rec\n    path: ../corpus', `  - kind: cli\n    name: c\n    command: '${command}'`);

  test.each([
    ['https://user:hunter2secret@api.example.com/v1', /user info/],
    ['https://api.example.com/v1?key=AbCdEf123456', /query parameter "key"/],
    ['https://api.example.com/v1?api-version=1&api_key=AbCdEf123456', /query parameter "api_key"/],
    ['https://x.blob.example/v1?sig=AbCdEf123456', /query parameter "sig"/],
  ])('base_url %s is refused without echoing the secret', (url, why) => {
    const p = problems(openai(url)).join('\n');
    expect(p).toMatch(/s\.yaml:5:\d+: agents\[0\]\.base_url: /);
    expect(p).toMatch(why);
    expect(p).toMatch(/environment variable.*api_key_env/);
    expect(p).not.toMatch(/hunter2|AbCdEf/);
  });

  test('a plain base_url passes', () => {
    expect(parseStudyFile(openai('https://api.example.com/v1?api-version=2024-06-01'), 's.yaml', catalog).agents[0]).toMatchObject({ base_url: 'https://api.example.com/v1?api-version=2024-06-01' });
  });

  test('a literal secret in a cli command is refused, pointing at env: and $NAME', () => {
    const p = problems(cli('claude -p x --api-key sk-ant-api03-AbCdEfGhIjKlMnOp')).join('\n');
    expect(p).toMatch(/s\.yaml:5:\d+: agents\[0\]\.command: .*Anthropic key.*name an environment variable in env: and reference it as \$NAME/);
    expect(p).not.toContain('AbCdEfGh');
  });

  test('references to the environment pass', () => {
    const s = parseStudyFile(cli('ANTHROPIC_API_KEY="$MY_KEY" claude --api-key ${ANTHROPIC_API_KEY} -p "$(cat {prompt_file})"'), 's.yaml', catalog);
    expect(s.agents[0]).toMatchObject({ kind: 'cli' });
  });
});

describe('YAML alias bombs (issue 8)', () => {
  test('are refused with the file and the line of the first alias', () => {
    const bomb = [
      'name: s1',
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
      '',
    ].join('\n');
    expect(problems(bomb)).toEqual([expect.stringMatching(/^\/studies\/s\.yaml:3:\d+: YAML: .*alias bomb/)]);
  });

  test('a few aliases are fine', () => {
    const s = parseStudyFile(valid.replace('languages: [python]\ntasks: [p_01, p_04]', 'languages: [python, cpp]\ntasks:\n  python: &t [p_01, p_04]\n  cpp: *t'), 's.yaml', catalog);
    expect(s.tasksByLanguage?.cpp?.map((t) => t.id)).toEqual(['p_01', 'p_04']);
  });
});
