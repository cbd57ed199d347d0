// Writes DIR/loupe.json: the list of transcript files (paths below DIR, sizes, modification
// times) that lets Loupe open DIR from a host that gives no folder listing (?src=<URL of DIR>/ or
// of the loupe.json). Only .jsonl and .json files are listed, never loupe.json itself; tool-results/
// folders (side files the viewer never reads) are skipped. Run: npm run manifest -- DIR
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npm run manifest -- DIR');
  process.exit(2);
}

const files = [];
const walk = (at) => {
  for (const ent of readdirSync(at, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(at, ent.name);
    if (ent.isDirectory()) {
      if (ent.name !== 'tool-results') walk(p);
    } else if (ent.isFile() && /\.jsonl?$/i.test(ent.name) && p !== join(dir, 'loupe.json')) {
      const st = statSync(p);
      files.push({ path: relative(dir, p).split(sep).join('/'), size: st.size, modified: st.mtime.toISOString() });
    }
  }
};
walk(dir);
writeFileSync(join(dir, 'loupe.json'), JSON.stringify({ format: 'loupe-manifest', version: 1, files }, null, 1) + '\n');
console.log(`${join(dir, 'loupe.json')}: ${files.length} files, ${files.reduce((n, f) => n + f.size, 0)} bytes`);
