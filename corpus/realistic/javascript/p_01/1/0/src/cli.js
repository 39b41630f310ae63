const fs = require('fs');
const { parse } = require('csv-parse/sync');

const file = process.argv[2];
if (!file) {
  console.error('usage: npm start -- FILE.csv');
  process.exit(2);
}
const rows = parse(fs.readFileSync(file), { columns: true });
for (const column of Object.keys(rows[0])) {
  const values = rows.map((r) => Number(r[column])).filter((v) => !Number.isNaN(v));
  if (values.length === 0) continue;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  console.log(`${column}: n=${values.length} mean=${mean.toFixed(2)} min=${Math.min(...values)} max=${Math.max(...values)}`);
}
