#!/usr/bin/env node
'use strict';
// YAML Config Merger: deep-merges YAML files (later files win) at the document level, so comments
// survive; array strategies, conflict reports, ${VAR:-default} interpolation and schema validation.

const fs = require('fs');
const path = require('path');
const YAML = require('yaml');

const STRATEGIES = ['replace', 'append', 'unique'];

class ConfigError extends Error {}

function parseArgs(argv) {
  const opts = { files: [], arrayStrategy: 'replace', output: 'merged_config.yaml', schema: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new ConfigError(`missing value after ${arg}`);
      return argv[++i];
    };
    if (arg === '--array-strategy') opts.arrayStrategy = value();
    else if (arg.startsWith('--array-strategy=')) opts.arrayStrategy = arg.split('=')[1];
    else if (arg === '--output' || arg === '-o') opts.output = value();
    else if (arg === '--schema') opts.schema = value();
    else if (arg === '--help' || arg === '-h') opts.help = true;
    else if (arg.startsWith('--')) throw new ConfigError(`unknown option ${arg}`);
    else opts.files.push(arg);
  }
  if (!STRATEGIES.includes(opts.arrayStrategy)) {
    throw new ConfigError(`--array-strategy must be one of ${STRATEGIES.join(', ')}, not "${opts.arrayStrategy}"`);
  }
  return opts;
}

/** Parses one YAML file into a Document (comments kept); errors name the file, line and column. */
function loadDocument(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`${file}: cannot read (${err.code || err.message})`);
  }
  const doc = YAML.parseDocument(text, { prettyErrors: true });
  if (doc.errors.length) {
    const err = doc.errors[0];
    const pos = err.linePos ? `line ${err.linePos[0].line}, column ${err.linePos[0].col}` : 'unknown location';
    throw new ConfigError(`${file}: malformed YAML at ${pos}: ${err.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`);
  }
  if (doc.contents === null) doc.contents = doc.createNode({});
  if (!YAML.isMap(doc.contents)) throw new ConfigError(`${file}: top level must be a mapping`);
  return doc;
}

const keyOf = (pair) => (YAML.isScalar(pair.key) ? String(pair.key.value) : String(pair.key));
const plain = (node) => (node && typeof node.toJSON === 'function' ? node.toJSON() : node);
const same = (a, b) => JSON.stringify(plain(a)) === JSON.stringify(plain(b));

/**
 * Merges the mapping node source into target (mutated). origins maps a key path to the file that
 * last set it; conflicts collects every leaf that two files set to different values.
 */
function mergeMaps(target, source, ctx, prefix = '') {
  for (const pair of source.items) {
    const key = keyOf(pair);
    const keyPath = prefix ? `${prefix}.${key}` : key;
    const existing = target.items.find((p) => keyOf(p) === key);
    if (!existing) {
      target.items.push(pair);
      markOrigins(pair.value, keyPath, ctx);
      continue;
    }
    const [old, next] = [existing.value, pair.value];
    if (YAML.isMap(old) && YAML.isMap(next)) {
      mergeMaps(old, next, ctx, keyPath);
    } else if (YAML.isSeq(old) && YAML.isSeq(next) && ctx.strategy !== 'replace') {
      const items = ctx.strategy === 'append' ? next.items : next.items.filter((n) => !old.items.some((o) => same(o, n)));
      old.items.push(...items);
      ctx.origins[keyPath] = ctx.file;
    } else {
      if (!same(old, next)) {
        let conflict = ctx.conflicts.find((c) => c.path === keyPath);
        if (!conflict) ctx.conflicts.push((conflict = { path: keyPath, values: [{ file: ctx.origins[keyPath], value: plain(old) }] }));
        conflict.values.push({ file: ctx.file, value: plain(next) });
      }
      if (next && old && !next.comment && old.comment) next.comment = old.comment; // keep a trailing comment
      if (YAML.isScalar(pair.key) && !pair.key.commentBefore && YAML.isScalar(existing.key)) pair.key.commentBefore = existing.key.commentBefore;
      existing.value = next;
      markOrigins(next, keyPath, ctx);
    }
  }
}

function markOrigins(node, keyPath, ctx) {
  ctx.origins[keyPath] = ctx.file;
  if (YAML.isMap(node)) for (const p of node.items) markOrigins(p.value, `${keyPath}.${keyOf(p)}`, ctx);
}

/** Replaces ${VAR} and ${VAR:-default} in every string scalar of the document. */
function interpolate(doc, env) {
  const unresolved = [];
  YAML.visit(doc, {
    Scalar(key, node, ancestry) {
      if (key === 'key' || typeof node.value !== 'string') return;
      const original = node.value;
      const replaced = original.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (match, name, fallback) => {
        if (env[name] !== undefined && env[name] !== '') return env[name];
        if (fallback !== undefined) return fallback;
        const where = ancestry.filter(YAML.isPair).map(keyOf).join('.');
        unresolved.push(`${where}: \${${name}} is not set and has no default`);
        return match;
      });
      if (replaced === original) return;
      // A value that was only a placeholder gets its natural type back: "6432" -> 6432, "true" -> true.
      const typed = /^\$\{[^}]+\}$/.test(original) ? YAML.parse(replaced) : replaced;
      node.value = typeof typed === 'number' || typeof typed === 'boolean' ? typed : replaced;
      node.type = undefined; // drop any quoting style of the placeholder
    },
  });
  return unresolved;
}

/** Validates data against a small schema language (type, required, properties, items, enum, min/max, pattern). */
function validate(data, schema, at = '$', errors = []) {
  const typeOf = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);
  if (schema.type) {
    const allowed = [].concat(schema.type);
    const actual = typeOf(data);
    if (!allowed.includes(actual) && !(actual === 'integer' && allowed.includes('number'))) {
      errors.push(`${at}: expected ${allowed.join('|')}, got ${actual} (${JSON.stringify(data)})`);
      return errors;
    }
  }
  if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(data))) {
    errors.push(`${at}: ${JSON.stringify(data)} is not one of ${JSON.stringify(schema.enum)}`);
  }
  if (typeof data === 'number') {
    if (schema.minimum !== undefined && data < schema.minimum) errors.push(`${at}: ${data} is below minimum ${schema.minimum}`);
    if (schema.maximum !== undefined && data > schema.maximum) errors.push(`${at}: ${data} is above maximum ${schema.maximum}`);
  }
  if (typeof data === 'string' && schema.pattern && !new RegExp(schema.pattern).test(data)) {
    errors.push(`${at}: "${data}" does not match /${schema.pattern}/`);
  }
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    for (const key of schema.required || []) if (!(key in data)) errors.push(`${at}.${key}: required key is missing`);
    for (const [key, sub] of Object.entries(schema.properties || {})) if (key in data) validate(data[key], sub, `${at}.${key}`, errors);
  }
  if (Array.isArray(data) && schema.items) data.forEach((item, i) => validate(item, schema.items, `${at}[${i}]`, errors));
  return errors;
}

function mergeFiles(files, strategy, env = process.env) {
  if (files.length < 2) throw new ConfigError('give at least two YAML files to merge');
  const docs = files.map(loadDocument);
  const merged = docs[0];
  const ctx = { strategy, origins: {}, conflicts: [], file: files[0] };
  markOrigins(merged.contents, '', ctx);
  for (const p of merged.contents.items) markOrigins(p.value, keyOf(p), ctx);
  docs.slice(1).forEach((doc, i) => {
    ctx.file = files[i + 1];
    mergeMaps(merged.contents, doc.contents, ctx);
  });
  const unresolved = interpolate(merged, env);
  return { doc: merged, conflicts: ctx.conflicts, unresolved };
}

function run(opts, env = process.env) {
  const { doc, conflicts, unresolved } = mergeFiles(opts.files, opts.arrayStrategy, env);
  console.log(`Merged ${opts.files.length} files (array strategy: ${opts.arrayStrategy})`);
  if (conflicts.length) {
    console.log(`\n${conflicts.length} conflict(s) (the last file wins):`);
    for (const c of conflicts) {
      console.log(`  ${c.path}`);
      for (const { file, value } of c.values) console.log(`      ${path.basename(file).padEnd(18)} ${JSON.stringify(value)}`);
    }
  } else {
    console.log('\nNo conflicts.');
  }
  for (const u of unresolved) console.log(`  warning: ${u}`);

  if (opts.schema) {
    const schema = loadDocument(opts.schema).toJS();
    const errors = validate(doc.toJS(), schema);
    console.log(errors.length ? `\nSchema validation FAILED (${errors.length} error(s)):` : `\nSchema validation passed (${path.basename(opts.schema)})`);
    for (const e of errors) console.log(`  - ${e}`);
  }

  doc.commentBefore = [` Merged from: ${opts.files.map((f) => path.basename(f)).join(', ')} (array strategy: ${opts.arrayStrategy})`, doc.commentBefore]
    .filter(Boolean).join('\n');
  const text = doc.toString({ lineWidth: 100 });
  console.log('\n--- merged configuration ---');
  console.log(text.trimEnd());
  console.log('----------------------------');
  fs.writeFileSync(opts.output, text);
  console.log(`Saved merged configuration to ${opts.output}`);
}

const SAMPLES = {
  'base.yaml': `# Base configuration shared by every environment

app:
  name: inventory-service
  version: 1.4.0
  # Feature flags enabled everywhere
  features: [search, export]
server:
  host: 0.0.0.0
  port: 8080 # default HTTP port
  timeouts:
    read: 30
    write: 30
database:
  connection:
    host: \${DB_HOST:-localhost}
    port: 5432
    user: app
    password: \${DB_PASSWORD:-changeme}
  pool: { min: 2, max: 10 }
logging:
  level: \${LOG_LEVEL:-info}
  outputs: [console]
`,
  'production.yaml': `# Production overrides
server:
  port: 443
  timeouts:
    read: 60
database:
  connection:
    host: \${DB_HOST:-db.prod.internal}
    port: 6432 # pgbouncer in front of PostgreSQL
  pool: { max: 50 }
logging:
  level: warn
  outputs: [console, file]
app:
  features: [search, export, audit]
`,
  'local.yaml': `# Developer overrides (take precedence)
server:
  port: 3000
logging:
  level: debug
  outputs: [console, syslog]
app:
  features: [search, debug-toolbar]
# Added only on developer machines
cache:
  enabled: true
  ttl_seconds: 120
`,
  'schema.yaml': `type: object
required: [app, server, database, logging]
properties:
  app:
    type: object
    required: [name, version]
    properties:
      version: { type: string, pattern: "^\\\\d+\\\\.\\\\d+\\\\.\\\\d+$" }
      features: { type: array, items: { type: string } }
  server:
    type: object
    properties:
      port: { type: integer, minimum: 1024, maximum: 65535 }
  logging:
    type: object
    properties:
      level: { enum: [debug, info, warn, error] }
  cache:
    type: object
    properties:
      ttl_seconds: { type: integer, minimum: 1 }
`,
  'broken.yaml': `server:
  port: 8080
   host: misplaced-indentation
`,
};

function demo() {
  const dir = path.join(process.cwd(), 'sample_configs');
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(SAMPLES)) fs.writeFileSync(path.join(dir, name), text);
  const files = ['base.yaml', 'production.yaml', 'local.yaml'].map((f) => path.join('sample_configs', f));
  console.log('No input files given: wrote base.yaml, production.yaml, local.yaml, schema.yaml and broken.yaml to sample_configs/\n');

  console.log('=== merge --array-strategy unique --schema schema.yaml (DB_PASSWORD=s3cret) ===');
  run({ files, arrayStrategy: 'unique', output: 'merged_config.yaml', schema: path.join('sample_configs', 'schema.yaml') }, { ...process.env, DB_PASSWORD: 's3cret' });

  console.log('\n=== array strategies for app.features ===');
  for (const strategy of STRATEGIES) {
    const { doc } = mergeFiles(files, strategy, {});
    console.log(`  ${strategy.padEnd(8)} ${JSON.stringify(doc.getIn(['app', 'features']).toJSON())}`);
  }

  console.log('\n=== malformed input ===');
  try {
    mergeFiles([files[0], path.join('sample_configs', 'broken.yaml')], 'replace');
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.log(`  error: ${err.message}`);
  }
}

function main() {
  try {
    const opts = parseArgs(process.argv.slice(2));
    if (opts.help) {
      console.log('usage: node index.js <a.yaml> <b.yaml> [...] [--array-strategy replace|append|unique] [--schema schema.yaml] [--output merged_config.yaml]');
      return 0;
    }
    if (opts.files.length === 0) demo();
    else run(opts);
    return 0;
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`error: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

process.exitCode = main();
