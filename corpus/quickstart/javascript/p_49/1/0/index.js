#!/usr/bin/env node
'use strict';
// Cron Expression Parser: validates cron expressions field by field, explains them in English,
// lists the next N run times in a time zone, computes gap and frequency statistics, checks whether
// a datetime matches, turns simple English phrases into cron, and validates files in batch.

const fs = require('fs');
const cronParser = require('cron-parser');

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const ORDINALS = ['', 'first', 'second', 'third', 'fourth', 'fifth'];

const FIELDS = {
  second: { min: 0, max: 59 },
  minute: { min: 0, max: 59 },
  hour: { min: 0, max: 23 },
  dayOfMonth: { min: 1, max: 31, label: 'day-of-month' },
  month: { min: 1, max: 12, names: MONTHS },
  dayOfWeek: { min: 0, max: 7, names: DAYS, label: 'day-of-week' },
};

class CronError extends Error {}

// ------------------------------------------------------------------------------------ validation

/**
 * Parses an expression into per-field structures; throws CronError naming the field position and
 * the reason ("Field 2 (hour): value 25 exceeds maximum 23").
 */
function parseCron(expression, withSeconds) {
  const parts = expression.trim().split(/\s+/).filter(Boolean);
  const names = withSeconds ? ['second', 'minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek'] : ['minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek'];
  if (parts.length !== names.length) {
    throw new CronError(`expected ${names.length} fields (${names.map(label).join(' ')}), found ${parts.length}` +
      (!withSeconds && parts.length === 6 ? ' (use --with-seconds for a 6-field expression)' : ''));
  }
  const fields = {};
  names.forEach((name, i) => {
    fields[name] = parseField(name, parts[i], i + 1);
  });
  if (!withSeconds) fields.second = parseField('second', '0', 0);
  checkImpossible(fields);
  return { expression: parts.join(' '), fields, withSeconds };
}

function label(name) {
  return FIELDS[name].label || name;
}

function parseField(name, text, position) {
  const spec = FIELDS[name];
  const fail = (reason) => {
    throw new CronError(`Field ${position} (${label(name)}): ${reason}`);
  };
  const field = { text, values: new Set(), any: false, last: false, weekday: [], lastWeekday: false, nth: [], lastDow: [] };
  const number = (token) => {
    const upper = token.toUpperCase();
    if (spec.names && spec.names.includes(upper)) return spec.names.indexOf(upper) + (name === 'month' ? 1 : 0);
    if (!/^\d+$/.test(token)) fail(`"${token}" is not a number${spec.names ? ' or a name' : ''}`);
    const n = Number(token);
    if (n < spec.min) fail(`value ${n} is below minimum ${spec.min}`);
    if (n > spec.max) fail(`value ${n} exceeds maximum ${spec.max}`);
    return n;
  };
  if (text === '') fail('empty field');
  for (const item of text.split(',')) {
    if (item === '') fail(`empty list element in "${text}"`);
    if (item === '*' || item === '?') {
      if (item === '?' && name !== 'dayOfMonth' && name !== 'dayOfWeek') fail('"?" is only allowed in day-of-month and day-of-week');
      field.any = true;
      for (let v = spec.min; v <= spec.max; v++) field.values.add(v);
      continue;
    }
    if (name === 'dayOfMonth' && (item === 'L' || item === 'LW')) {
      if (item === 'L') field.last = true;
      else field.lastWeekday = true;
      continue;
    }
    let m;
    if ((m = /^(\d+)W$/i.exec(item))) {
      if (name !== 'dayOfMonth') fail(`"W" (nearest weekday) is only allowed in day-of-month, got "${item}"`);
      field.weekday.push(number(m[1]));
      continue;
    }
    if ((m = /^(\w+)L$/i.exec(item))) {
      if (name !== 'dayOfWeek') fail(`"${item}": "L" after a value is only allowed in day-of-week`);
      field.lastDow.push(number(m[1]) % 7);
      continue;
    }
    if ((m = /^(\w+)#(\d+)$/.exec(item))) {
      if (name !== 'dayOfWeek') fail(`"#" (nth weekday) is only allowed in day-of-week, got "${item}"`);
      const k = Number(m[2]);
      if (k < 1 || k > 5) fail(`"${item}": occurrence ${k} must be between 1 and 5`);
      field.nth.push({ day: number(m[1]) % 7, k });
      continue;
    }
    if (/[LW#]/i.test(item) && !/^(\w+-\w+|\*)(\/\d+)?$/.test(item)) fail(`malformed special character in "${item}"`);
    m = /^(\*|\w+)(?:-(\w+))?(?:\/(\w+))?$/.exec(item);
    if (!m) fail(`cannot parse "${item}"`);
    let step = 1;
    if (m[3] !== undefined) {
      if (!/^\d+$/.test(m[3])) fail(`step "${m[3]}" is not a number`);
      step = Number(m[3]);
      if (step === 0) fail(`step 0 in "${item}" is not allowed`);
      if (step > spec.max) fail(`step ${step} exceeds maximum ${spec.max}`);
    }
    const start = m[1] === '*' ? spec.min : number(m[1]);
    const end = m[2] !== undefined ? number(m[2]) : m[1] === '*' || m[3] !== undefined ? spec.max : start;
    if (start > end) fail(`range ${item} runs backwards (${start} > ${end})`);
    for (let v = start; v <= end; v += step) field.values.add(v);
  }
  if (name === 'dayOfWeek' && field.values.has(7)) {
    field.values.delete(7);
    field.values.add(0);
  }
  return field;
}

function checkImpossible(fields) {
  const dom = fields.dayOfMonth;
  if (dom.any || dom.last || dom.lastWeekday || !fields.dayOfWeek.any) return;
  const days = [...dom.values, ...dom.weekday];
  const months = [...fields.month.values];
  if (days.length && months.every((mo) => days.every((d) => d > DAYS_IN_MONTH[mo - 1]))) {
    const which = months.map((mo) => MONTH_NAMES[mo - 1]).join(', ');
    throw new CronError(`impossible combination: day ${days.join(',')} never occurs in ${which}`);
  }
}

// ----------------------------------------------------------------------------------- description

function pad(n) {
  return String(n).padStart(2, '0');
}

function clock(h, m, s) {
  const suffix = h < 12 ? 'AM' : 'PM';
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${pad(h12)}:${pad(m)}${s ? ':' + pad(s) : ''} ${suffix}`;
}

/** "1-5" -> "Monday through Friday"; "1,3" -> "Monday and Wednesday"; "*\/2" -> "every 2nd ..." */
function describeList(field, spec, nameOf) {
  const values = [...field.values].sort((a, b) => a - b);
  const step = /^\*\/(\d+)$/.exec(field.text);
  if (step) return { every: Number(step[1]) };
  const range = /^(\w+)-(\w+)$/.exec(field.text);
  if (range) return { text: `${nameOf(values[0])} through ${nameOf(values[values.length - 1])}` };
  const names = values.map(nameOf);
  return { text: names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0] || '' };
}

function describe(parsed) {
  const { fields } = parsed;
  const single = (f) => !f.any && f.values.size === 1 && /^\w+$/.test(f.text);
  const parts = [];
  const [sec, min, hour] = [fields.second, fields.minute, fields.hour];
  const secText = parsed.withSeconds && !(single(sec) && [...sec.values][0] === 0)
    ? (sec.any ? 'every second' : /^\*\/\d+$/.test(sec.text) ? `every ${sec.text.slice(2)} seconds` : `at second ${describeList(sec, FIELDS.second, String).text}`)
    : null;

  if (single(min) && single(hour)) {
    parts.push(`At ${clock([...hour.values][0], [...min.values][0], secText ? null : 0)}`);
  } else if (single(min) && !hour.any && /^\w+(,\w+)*$/.test(hour.text)) {
    const times = [...hour.values].sort((a, b) => a - b).map((h) => clock(h, [...min.values][0]));
    parts.push(`At ${times.slice(0, -1).join(', ')} and ${times[times.length - 1]}`);
  } else {
    let minuteText;
    if (min.any) minuteText = secText ? null : 'Every minute';
    else if (/^\*\/\d+$/.test(min.text)) minuteText = `Every ${min.text.slice(2)} minutes`;
    else minuteText = `At minute ${describeList(min, FIELDS.minute, String).text}`;
    if (minuteText) parts.push(minuteText);
    if (!hour.any) {
      const hours = [...hour.values].sort((a, b) => a - b);
      if (/^\*\/\d+$/.test(hour.text)) parts.push(`past every ${hour.text.slice(2)} hours`);
      else if (/^\w+-\w+$/.test(hour.text)) parts.push(`between ${clock(hours[0], 0)} and ${clock(hours[hours.length - 1], 59)}`);
      else parts.push(`during the hour${hours.length > 1 ? 's' : ''} starting ${hours.map((h) => clock(h, 0)).join(', ')}`);
    } else if (!min.any && !/^\*\/\d+$/.test(min.text)) {
      parts.push('past every hour');
    }
  }
  if (secText) {
    const capital = secText.charAt(0).toUpperCase() + secText.slice(1);
    if (parts.length && /^(past|between|during)/.test(parts[0])) parts[0] = `${capital} ${parts[0]}`;
    else parts.unshift(capital);
  }

  const dom = fields.dayOfMonth;
  const dow = fields.dayOfWeek;
  const dayParts = [];
  if (dom.last) dayParts.push('on the last day of the month');
  if (dom.lastWeekday) dayParts.push('on the last weekday of the month');
  for (const d of dom.weekday) dayParts.push(`on the weekday nearest day ${d} of the month`);
  if (!dom.any && dom.values.size) {
    const d = describeList(dom, FIELDS.dayOfMonth, String);
    dayParts.push(d.every ? `every ${d.every} days of the month` : `on day ${d.text} of the month`);
  }
  for (const n of dow.nth) dayParts.push(`on the ${ORDINALS[n.k]} ${DAY_NAMES[n.day]} of the month`);
  for (const d of dow.lastDow) dayParts.push(`on the last ${DAY_NAMES[d]} of the month`);
  if (!dow.any && dow.values.size) {
    const d = describeList(dow, FIELDS.dayOfWeek, (v) => DAY_NAMES[v % 7]);
    dayParts.push(d.every ? `every ${d.every} days of the week` : `every ${d.text}`);
  }
  if (dayParts.length) parts.push(dayParts.join(' or '));
  if (!fields.month.any) {
    const d = describeList(fields.month, FIELDS.month, (v) => MONTH_NAMES[v - 1]);
    parts.push(d.every ? `every ${d.every} months` : `in ${d.text}`);
  }
  return parts.join(', ').replace(/, (past|between|during)/, ' $1');
}

// ------------------------------------------------------------------- English phrase -> cron (--parse)

const PHRASES = [
  [/^every minute$/, () => '* * * * *'],
  [/^every (\d+) minutes?$/, (m) => `*/${m[1]} * * * *`],
  [/^every hour$/, () => '0 * * * *'],
  [/^every (\d+) hours?$/, (m) => `0 */${m[1]} * * *`],
  [/^every day at (.+)$/, (m) => { const t = time(m[1]); return `${t.m} ${t.h} * * *`; }],
  [/^every weekday at (.+)$/, (m) => { const t = time(m[1]); return `${t.m} ${t.h} * * 1-5`; }],
  [/^every weekend at (.+)$/, (m) => { const t = time(m[1]); return `${t.m} ${t.h} * * 0,6`; }],
  [/^every (sunday|monday|tuesday|wednesday|thursday|friday|saturday) at (.+)$/, (m) => { const t = time(m[2]); return `${t.m} ${t.h} * * ${DAYS[DAY_NAMES.map((d) => d.toLowerCase()).indexOf(m[1])]}`; }],
  [/^every month on the (\d+)(?:st|nd|rd|th)? at (.+)$/, (m) => { const t = time(m[2]); return `${t.m} ${t.h} ${m[1]} * *`; }],
  [/^on the last day of every month at (.+)$/, (m) => { const t = time(m[1]); return `${t.m} ${t.h} L * *`; }],
];

function time(text) {
  if (text === 'midnight') return { h: 0, m: 0 };
  if (text === 'noon') return { h: 12, m: 0 };
  const m = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/.exec(text);
  if (!m) throw new CronError(`cannot read the time "${text}" (try 9am, 16:30 or midnight)`);
  let h = Number(m[1]);
  if (m[3] === 'pm' && h < 12) h += 12;
  if (m[3] === 'am' && h === 12) h = 0;
  if (h > 23 || Number(m[2] || 0) > 59) throw new CronError(`"${text}" is not a valid time`);
  return { h, m: Number(m[2] || 0) };
}

function phraseToCron(phrase) {
  const text = phrase.trim().toLowerCase().replace(/\s+/g, ' ');
  for (const [re, build] of PHRASES) {
    const m = re.exec(text);
    if (m) return build(m);
  }
  throw new CronError(`no pattern for "${phrase}" (e.g. "every 15 minutes", "every weekday at 9am", "every monday at 10:30")`);
}

// ------------------------------------------------------------------------------ scheduling

/** The weekday nearest to day d of the given month (never leaving the month). */
function nearestWeekday(year, month, d) {
  const dim = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  if (d > dim) return null;
  const dow = new Date(Date.UTC(year, month, d)).getUTCDay();
  if (dow === 6) return d === 1 ? 3 : d - 1;
  if (dow === 0) return d === dim ? d - 2 : d + 1;
  return d;
}

/** Whether a calendar day (in the schedule's time zone) matches the day fields, cron's OR rule included. */
function dayMatches(fields, year, month, day) {
  const dom = fields.dayOfMonth;
  const dow = fields.dayOfWeek;
  const dim = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const weekday = new Date(Date.UTC(year, month, day)).getUTCDay();
  if (!fields.month.values.has(month + 1)) return false;
  const domMatch = dom.values.has(day) || (dom.last && day === dim) ||
    dom.weekday.some((d) => nearestWeekday(year, month, d) === day) ||
    (dom.lastWeekday && day === nearestWeekday(year, month, dim));
  const dowMatch = dow.values.has(weekday) || dow.nth.some((n) => n.day === weekday && Math.ceil(day / 7) === n.k) ||
    dow.lastDow.some((d) => d === weekday && day + 7 > dim);
  const domRestricted = !dom.any;
  const dowRestricted = !dow.any;
  if (domRestricted && dowRestricted) return domMatch || dowMatch;
  if (domRestricted) return domMatch;
  if (dowRestricted) return dowMatch;
  return true;
}

/** Runs of the expression after start (cron-parser does the time arithmetic, W is filtered here). */
function* runs(parsed, start, tz) {
  const dom = parsed.fields.dayOfMonth;
  const needsFilter = dom.weekday.length > 0 || dom.lastWeekday;
  let expression = parsed.expression;
  if (needsFilter) {
    // cron-parser has no W: widen day-of-month to the candidate days and keep the exact matches.
    const parts = expression.split(' ');
    const idx = parsed.withSeconds ? 3 : 2;
    const candidates = new Set([...dom.values]);
    for (const d of dom.weekday) for (let c = Math.max(1, d - 2); c <= Math.min(31, d + 2); c++) candidates.add(c);
    if (dom.lastWeekday || dom.last) for (let c = 26; c <= 31; c++) candidates.add(c);
    parts[idx] = [...candidates].sort((a, b) => a - b).join(',');
    expression = parts.join(' ');
  }
  const interval = cronParser.parseExpression(expression, { currentDate: start, tz, utc: tz === 'UTC' });
  let guard = 0;
  while (guard++ < 5000) {
    let next;
    try {
      next = interval.next().toDate();
    } catch (err) {
      return; // out of range: no more runs
    }
    if (needsFilter) {
      const p = zonedParts(next, tz);
      if (!dayMatches(parsed.fields, p.year, p.month - 1, p.day)) continue;
    }
    yield next;
  }
}

function take(iterable, n) {
  const out = [];
  for (const v of iterable) {
    out.push(v);
    if (out.length >= n) break;
  }
  return out;
}

function zonedParts(date, tz) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(date);
  const get = (type) => Number(parts.find((p) => p.type === type).value);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

/** ISO 8601 in the given zone, with its UTC offset: 2025-01-06T09:00:00-05:00. */
function isoInZone(date, tz) {
  const p = zonedParts(date, tz);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  const offset = Math.round((asUtc - Math.floor(date.getTime() / 1000) * 1000) / 60000);
  const sign = offset < 0 ? '-' : '+';
  const off = offset === 0 ? 'Z' : `${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${off}`;
}

function human(date, tz) {
  return new Intl.DateTimeFormat('en-US', { timeZone: tz, weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(date);
}

function duration(ms) {
  const s = Math.round(ms / 1000);
  const units = [['d', 86400], ['h', 3600], ['m', 60], ['s', 1]];
  const out = [];
  let rest = s;
  for (const [u, size] of units) {
    if (rest >= size) {
      out.push(`${Math.floor(rest / size)}${u}`);
      rest %= size;
    }
  }
  return out.slice(0, 2).join(' ') || '0s';
}

/** Gap statistics over the next runs, and run counts per day/week/month/year counted from start. */
function statistics(parsed, start, tz) {
  const sample = take(runs(parsed, start, tz), 48);
  const gaps = sample.slice(1).map((d, i) => d - sample[i]);
  const { fields } = parsed;
  const perMatchingDay = fields.second.values.size * fields.minute.values.size * fields.hour.values.size;
  const counts = {};
  const s = zonedParts(start, tz);
  for (const [name, days] of [['day', 1], ['week', 7], ['month', 30], ['year', 365]]) {
    let n = 0;
    for (let i = 0; i < days; i++) {
      const d = new Date(Date.UTC(s.year, s.month - 1, s.day + i));
      if (dayMatches(fields, d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())) n += perMatchingDay;
    }
    counts[name] = n;
  }
  return {
    sampledRuns: sample.length,
    averageGapSeconds: gaps.length ? Math.round(gaps.reduce((a, b) => a + b, 0) / gaps.length / 1000) : null,
    minGapSeconds: gaps.length ? Math.min(...gaps) / 1000 : null,
    maxGapSeconds: gaps.length ? Math.max(...gaps) / 1000 : null,
    runsPerDay: perMatchingDay,
    runsNext: counts,
  };
}

/** Does the datetime match? Ask for the first run strictly after (datetime - 1 unit). */
function matches(parsed, when, tz) {
  const unit = parsed.withSeconds ? 1000 : 60000;
  const truncated = new Date(Math.floor(when.getTime() / unit) * unit);
  const [first] = take(runs(parsed, new Date(truncated.getTime() - unit), tz), 1);
  return Boolean(first) && first.getTime() === truncated.getTime();
}

// --------------------------------------------------------------------------------- presentation

function analyse(expression, opts) {
  const parsed = parseCron(expression, opts.withSeconds);
  const description = describe(parsed);
  const next = take(runs(parsed, opts.from, opts.timezone), opts.next);
  if (!next.length) throw new CronError('the expression never fires (no run in the searchable future)');
  const stats = statistics(parsed, opts.from, opts.timezone);
  const result = {
    expression: parsed.expression, valid: true, description, timezone: opts.timezone,
    from: isoInZone(opts.from, opts.timezone),
    next: next.map((d) => ({ iso: isoInZone(d, opts.timezone), human: human(d, opts.timezone) })),
    statistics: stats,
  };
  if (opts.check) result.check = { datetime: opts.check.toISOString(), matches: matches(parsed, opts.check, opts.timezone) };
  return result;
}

function printResult(r) {
  console.log(`\n  ${r.expression}`);
  console.log(`  ${'─'.repeat(Math.max(20, r.expression.length))}`);
  console.log(`  Description : ${r.description}`);
  console.log(`  Next ${r.next.length} runs (${r.timezone}, from ${r.from}):`);
  r.next.forEach((n, i) => console.log(`    ${String(i + 1).padStart(2)}. ${n.iso.padEnd(26)} ${n.human}`));
  const s = r.statistics;
  if (s.averageGapSeconds !== null) {
    console.log(`  Gaps over ${s.sampledRuns} runs: avg ${duration(s.averageGapSeconds * 1000)}, min ${duration(s.minGapSeconds * 1000)}, max ${duration(s.maxGapSeconds * 1000)}`);
  }
  console.log(`  Runs in the next day/week/30 days/year: ${s.runsNext.day} / ${s.runsNext.week} / ${s.runsNext.month} / ${s.runsNext.year}`);
  if (r.check) console.log(`  ${r.check.datetime} ${r.check.matches ? 'MATCHES' : 'does not match'}`);
}

function parseArgs(argv) {
  const opts = { expressions: [], withSeconds: false, next: 10, from: new Date(), timezone: 'UTC', output: 'cron_analysis.json' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new CronError(`missing value after ${arg}`);
      return argv[++i];
    };
    switch (arg) {
      case '--with-seconds': opts.withSeconds = true; break;
      case '--next': opts.next = Number(value()); if (!Number.isInteger(opts.next) || opts.next < 1) throw new CronError('--next needs a positive integer'); break;
      case '--from': opts.from = date(value(), '--from'); break;
      case '--timezone': opts.timezone = value(); break;
      case '--check': opts.check = date(value(), '--check'); break;
      case '--describe': opts.describeOnly = true; break;
      case '--parse': opts.parse = value(); break;
      case '--output': opts.output = value(); break;
      case '--batch': opts.batch = value(); break;
      default:
        if (arg.startsWith('--')) throw new CronError(`unknown option ${arg}`);
        opts.expressions.push(arg);
    }
  }
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: opts.timezone });
  } catch {
    throw new CronError(`unknown time zone "${opts.timezone}"`);
  }
  return opts;
}

function date(text, flag) {
  const d = new Date(text);
  if (Number.isNaN(d.getTime())) throw new CronError(`${flag}: "${text}" is not a date (use ISO 8601, e.g. 2025-01-06T09:00:00Z)`);
  return d;
}

function save(file, data) {
  fs.writeFileSync(file, JSON.stringify(data, null, 2) + '\n');
  console.log(`\nSaved results to ${file}`);
}

function demo(opts) {
  console.log('No expression given: demonstrating with example expressions.');
  const results = [];
  for (const expression of ['*/5 * * * *', '0 9 * * 1-5', '0 0 1,15 * *', '30 4 * * SUN']) {
    const r = analyse(expression, { ...opts, next: 5 });
    printResult(r);
    results.push(r);
  }
  console.log('\n  Special characters:');
  for (const expression of ['0 12 L * *', '0 8 15W * *', '0 23 LW * *', '0 18 * * 5L', '0 10 * * MON#2', '15 9-17 * * *', '*/30 * 9-17 * * MON-FRI']) {
    const withSeconds = expression.split(' ').length === 6;
    const r = analyse(expression, { ...opts, withSeconds, next: 1 });
    console.log(`    ${expression.padEnd(24)} ${r.description}; next ${r.next[0].iso}`);
    results.push(r);
  }
  console.log('\n  Invalid expressions:');
  for (const expression of ['0 25 * * *', '*/0 * * * *', '0 0 31 2 *', '0 0 * * MON#6', '15-5 * * * *', '0 0 1W * MON-', '* * *']) {
    try {
      parseCron(expression, false);
      console.log(`    ${expression.padEnd(16)} unexpectedly valid`);
    } catch (err) {
      if (!(err instanceof CronError)) throw err;
      console.log(`    ${expression.padEnd(16)} ${err.message}`);
      results.push({ expression, valid: false, error: err.message });
    }
  }
  console.log('\n  English to cron (--parse):');
  for (const phrase of ['every 15 minutes', 'every weekday at 9am', 'every sunday at 4:30am', 'every month on the 1st at midnight']) {
    const expression = phraseToCron(phrase);
    console.log(`    "${phrase}" -> ${expression.padEnd(14)} (${describe(parseCron(expression, false))})`);
  }
  const check = new Date(Date.UTC(2025, 0, 6, 9, 0));
  const parsed = parseCron('0 9 * * 1-5', false);
  console.log(`\n  --check: 0 9 * * 1-5 at ${check.toISOString()} -> ${matches(parsed, check, 'UTC') ? 'MATCHES' : 'no match'}; at Sat 2025-01-04T09:00Z -> ${matches(parsed, new Date(Date.UTC(2025, 0, 4, 9)), 'UTC') ? 'MATCHES' : 'no match'}`);
  save(opts.output, { generated: new Date().toISOString(), results });
}

function main() {
  try {
    const opts = parseArgs(process.argv.slice(2));
    if (opts.parse) {
      const expression = phraseToCron(opts.parse);
      console.log(`${opts.parse} -> ${expression}`);
      opts.expressions.push(expression);
    }
    if (opts.batch) {
      const lines = fs.readFileSync(opts.batch, 'utf8').split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
      const results = lines.map((expression) => {
        try {
          const parsed = parseCron(expression, opts.withSeconds || expression.split(/\s+/).length === 6);
          console.log(`  OK     ${expression.padEnd(24)} ${describe(parsed)}`);
          return { expression, valid: true, description: describe(parsed) };
        } catch (err) {
          if (!(err instanceof CronError)) throw err;
          console.log(`  ERROR  ${expression.padEnd(24)} ${err.message}`);
          return { expression, valid: false, error: err.message };
        }
      });
      save(opts.output, { batch: opts.batch, results });
      return results.every((r) => r.valid) ? 0 : 1;
    }
    if (opts.expressions.length === 0) {
      demo(opts);
      return 0;
    }
    const results = [];
    for (const expression of opts.expressions) {
      if (opts.describeOnly) {
        console.log(`${expression}: ${describe(parseCron(expression, opts.withSeconds))}`);
        continue;
      }
      const r = analyse(expression, opts);
      printResult(r);
      results.push(r);
    }
    if (results.length) save(opts.output, { generated: new Date().toISOString(), results });
    return 0;
  } catch (err) {
    if (err instanceof CronError) {
      console.error(`error: ${err.message}`);
      return 1;
    }
    if (err && err.code === 'ENOENT') {
      console.error(`error: file not found: ${err.path}`);
      return 1;
    }
    throw err;
  }
}

process.exitCode = main();
