import * as fs from 'node:fs';
import * as zlib from 'node:zlib';

/**
 * Writes ZIP archives and Inspect AI `.eval` logs for tests, from the public formats (PKWARE's
 * APPNOTE; inspect_ai's log/_recorders/eval.py: header.json, _journal/start.json,
 * samples/<id>_epoch_<n>.json, summaries.json, each a JSON document).
 */
export interface ZipItem {
  name: string;
  data: string | Buffer;
  /** deflate (Inspect's before 0.3.206) by default. */
  method?: 'store' | 'deflate';
}

/** A ZIP archive; `zip64` writes every size and offset through ZIP64 records, as large archives do. */
export function buildZip(items: readonly ZipItem[], opts: { zip64?: boolean; comment?: string } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const item of items) {
    const raw = Buffer.isBuffer(item.data) ? item.data : Buffer.from(item.data, 'utf8');
    const method = item.method === 'store' ? 0 : 8;
    const body = method === 8 ? zlib.deflateRawSync(raw) : raw;
    const name = Buffer.from(item.name, 'utf8');
    const crc = zlib.crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const extra = opts.zip64 ? Buffer.alloc(28) : Buffer.alloc(0);
    if (opts.zip64) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(24, 2);
      extra.writeBigUInt64LE(BigInt(raw.length), 4);
      extra.writeBigUInt64LE(BigInt(body.length), 12);
      extra.writeBigUInt64LE(BigInt(offset), 20);
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(45, 4);
    central.writeUInt16LE(45, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(opts.zip64 ? 0xffffffff : body.length, 20);
    central.writeUInt32LE(opts.zip64 ? 0xffffffff : raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(extra.length, 30);
    central.writeUInt32LE(opts.zip64 ? 0xffffffff : offset, 42);
    centrals.push(central, name, extra);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const tail: Buffer[] = [];
  if (opts.zip64) {
    const rec = Buffer.alloc(56);
    rec.writeUInt32LE(0x06064b50, 0);
    rec.writeBigUInt64LE(44n, 4);
    rec.writeUInt16LE(45, 12);
    rec.writeUInt16LE(45, 14);
    rec.writeBigUInt64LE(BigInt(items.length), 24);
    rec.writeBigUInt64LE(BigInt(items.length), 32);
    rec.writeBigUInt64LE(BigInt(cd.length), 40);
    rec.writeBigUInt64LE(BigInt(offset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(offset + cd.length), 8);
    locator.writeUInt32LE(1, 16);
    tail.push(rec, locator);
  }
  const comment = Buffer.from(opts.comment ?? '', 'utf8');
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(opts.zip64 ? 0xffff : items.length, 8);
  eocd.writeUInt16LE(opts.zip64 ? 0xffff : items.length, 10);
  eocd.writeUInt32LE(opts.zip64 ? 0xffffffff : cd.length, 12);
  eocd.writeUInt32LE(opts.zip64 ? 0xffffffff : offset, 16);
  eocd.writeUInt16LE(comment.length, 20);
  return Buffer.concat([...locals, cd, ...tail, eocd, comment]);
}

export interface EvalLogSpec {
  task: string;
  model: string;
  samples: Record<string, unknown>[];
  /** Without header.json: a log still running (only _journal/start.json). */
  running?: boolean;
}

/** An Inspect `.eval` log as Inspect lays it out (the fields envgap reads, and a few it does not). */
export function buildEvalLog(spec: EvalLogSpec): Buffer {
  const evalSpec = { eval_id: 'EvalId0000000000000001', run_id: 'RunId00000000000000001', created: '2026-12-02T10:00:00+00:00', task: spec.task, task_id: 'TaskId0000000000000001', task_version: 0, dataset: { samples: spec.samples.length }, sandbox: { type: 'docker' }, model: spec.model, config: { epochs: 1 }, packages: { inspect_ai: '0.3.140' } };
  const plan = { name: 'plan', steps: [{ solver: 'basic_agent', params: {} }], config: {} };
  const summaries = spec.samples.map((s) => ({ id: s.id, epoch: s.epoch, input: s.input, target: s.target ?? '', scores: s.scores ?? {} }));
  const items: ZipItem[] = [{ name: '_journal/start.json', data: JSON.stringify({ version: 2, eval: evalSpec, plan }) }];
  for (const s of spec.samples) items.push({ name: `samples/${s.id}_epoch_${s.epoch}.json`, data: JSON.stringify(s) });
  items.push({ name: '_journal/summaries/1.json', data: JSON.stringify(summaries) });
  if (!spec.running) {
    items.push({ name: 'summaries.json', data: JSON.stringify(summaries) });
    items.push({ name: 'header.json', data: JSON.stringify({ version: 2, status: 'success', eval: evalSpec, plan, results: { total_samples: spec.samples.length, completed_samples: spec.samples.length, scores: [] }, stats: { started_at: '2026-12-02T10:00:00+00:00', completed_at: '2026-12-02T10:05:00+00:00', model_usage: {} } }) });
  }
  return buildZip(items);
}

export function writeEvalLog(file: string, spec: EvalLogSpec): string {
  fs.writeFileSync(file, buildEvalLog(spec));
  return file;
}

const MAIN_PY = `import csv

from tabulate import tabulate


def main():
    with open("data.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    print(tabulate(rows[1:], headers=rows[0]))


if __name__ == "__main__":
    main()
`;

let uuid = 0;
const event = (e: Record<string, unknown>) => ({ uuid: `ev${++uuid}`, span_id: 'span1', timestamp: '2026-12-02T10:01:00+00:00', working_start: uuid, ...e });

/**
 * The fixture log of docs/inspect.md: sample 1's agent writes a Python project with the text_editor
 * tool (main.py through an attachment, as Inspect keeps texts over 100 characters; requirements.txt
 * with a phantom, six; an edit), data.csv through the sandbox, runs pip and its program with bash,
 * and writes a file of which the log keeps 20 lines; sample 2's agent writes only through bash.
 */
export function csvTableEvalLog(): EvalLogSpec {
  const tool = (id: string, fn: string, args: Record<string, unknown>, result = '') => event({ event: 'tool', type: 'function', id, function: fn, arguments: args, result, events: [], completed: '2026-12-02T10:01:01+00:00' });
  const long = Array.from({ length: 40 }, (_, i) => `note ${i}`).join('\n');
  const sample1 = {
    id: 1,
    epoch: 1,
    input: [{ id: 'm1', role: 'user', content: 'Write a Python program /root/work/main.py that prints /root/work/data.csv as a table; declare its dependencies in requirements.txt.', source: 'input' }],
    target: '',
    messages: [],
    output: { model: 'gpt-5-mini', choices: [] },
    scores: { includes: { value: 'C', answer: 'Porto', explanation: '' } },
    metadata: {},
    store: {},
    events: [
      event({ event: 'sample_init', sample: { input: 'attachment://in1', id: 1 }, state: {} }),
      event({ event: 'model', model: 'openai/gpt-5-mini', input: [], output: { choices: [] } }),
      tool('call_1', 'text_editor', { command: 'create', path: '/root/work/main.py', file_text: 'attachment://a1b2c3' }, 'File created successfully'),
      tool('call_2', 'text_editor', { command: 'create', path: '/root/work/requirements.txt', file_text: 'tabulate==0.9.0\nsix==1.16.0\n' }, 'File created successfully'),
      tool('call_3', 'text_editor', { command: 'str_replace', path: '/root/work/main.py', old_str: 'headers=rows[0]))', new_str: 'headers=rows[0], tablefmt="simple"))' }),
      tool('call_4', 'text_editor', { command: 'view', path: '/root/work/main.py' }, MAIN_PY),
      event({ event: 'sandbox', action: 'write_file', file: '/root/work/data.csv', input: 'city,country,population\nLyon,France,522250\nPorto,Portugal,231800\nGraz,Austria,291072\n', completed: '2026-12-02T10:01:02+00:00' }),
      tool('call_5', 'bash', { cmd: 'cd /root/work && pip install -r requirements.txt && python main.py' }, 'Successfully installed six-1.16.0 tabulate-0.9.0'),
      event({ event: 'sandbox', action: 'exec', cmd: "bash --login -c 'cd /root/work && pip install -r requirements.txt && python main.py'", options: {}, result: 0, output: 'Successfully installed' }),
      event({ event: 'sandbox', action: 'write_file', file: '/root/work/NOTES.md', input: `${long.split('\n').slice(0, 20).join('\n')}\n\nOutput truncated (20 additional lines)` }),
      tool('call_6', 'text_editor', { command: 'str_replace', path: '/root/work/missing.py', old_str: 'x', new_str: 'y' }, '', ),
    ],
    model_usage: { 'openai/gpt-5-mini': { input_tokens: 5210, output_tokens: 830, total_tokens: 6040, total_cost: 0.0042 } },
    total_time: 61.2,
    working_time: 40.1,
    uuid: 'SampleUuid000000000001',
    attachments: { a1b2c3: MAIN_PY, in1: 'Write a Python program ...' },
  };
  const sample2 = {
    id: 2,
    epoch: 1,
    input: 'Write a program that prints the first ten primes.',
    target: '',
    messages: [],
    output: { model: 'gpt-5-mini', choices: [] },
    scores: { includes: { value: 'I' } },
    metadata: {},
    store: {},
    events: [tool('call_7', 'bash', { cmd: "cat > /root/work/primes.py <<'EOF'\nprint([2, 3, 5, 7, 11, 13, 17, 19, 23, 29])\nEOF" })],
    model_usage: {},
    attachments: {},
  };
  return { task: 'envgap_fixtures/csv_table', model: 'openai/gpt-5-mini', samples: [sample1, sample2] };
}
