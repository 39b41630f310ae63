const _ = require('lodash');

const records = [
  { name: 'Ada Lovelace', email: 'ada@example.org' },
  { name: 'ada lovelace', email: 'ADA@example.org' },
  { name: 'Alan Turing', email: 'alan@example.org' },
];
const groups = _.groupBy(records, (r) => `${r.name.toLowerCase()}|${r.email.toLowerCase()}`);
for (const [key, group] of Object.entries(groups)) if (group.length > 1) console.log('duplicate', key, group.length);
