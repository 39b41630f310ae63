const fs = require('fs');

const url = 'https://cdn.example-files.net/releases/latest.tar.gz';

async function main() {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  fs.writeFileSync('latest.tar.gz', Buffer.from(await response.arrayBuffer()));
  console.log('saved latest.tar.gz');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
