#!/usr/bin/env node
const path = require('node:path');
const fs = require('node:fs');
const main = path.join(__dirname, '..', 'dist', 'src', 'cli', 'main.js');
if (!fs.existsSync(main)) {
  process.stderr.write('envgap: not built yet; run `npm run build` (or scripts/quickstart.sh, which builds)\n');
  process.exit(1);
}
require(main);
