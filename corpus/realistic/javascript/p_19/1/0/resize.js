const fs = require('fs');
const sharp = require('sharp');

async function main() {
  fs.mkdirSync('out', { recursive: true });
  const info = await sharp('assets/gradient.png').resize(32, 24).png().toFile('out/thumb.png');
  console.log(`thumbnail ${info.width}x${info.height}, ${info.size} bytes`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
