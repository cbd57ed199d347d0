// Part of `npm run bench:browser` (run as a child with --expose-gc): the memory the search text
// adds to a loaded session. Loads the file through the engine, builds its chat rows, then
// measures the V8 heap retained by prepareSearch (the fields: references to the rows' own
// strings plus the tool inputs flattened out of their JSON). Prints one JSON object.
//
//   node --expose-gc --import tsx scripts/bench-search-memory.ts FILE.jsonl
import { readFileSync } from 'node:fs';
import { Engine } from '../src/lib/worker/engine.ts';

const file = process.argv[2];
const gc = (globalThis as { gc?: () => void }).gc;
if (!file || !gc) {
	process.stderr.write('usage: node --expose-gc --import tsx scripts/bench-search-memory.ts FILE.jsonl\n');
	process.exit(2);
}
const bytes = readFileSync(file);
const engine = new Engine();
const out = await engine.load(1, { files: [{ path: file.split('/').pop() ?? 'session.jsonl', blob: new Blob([bytes]) }] });
if (!out.ok) throw new Error(out.message);
const key = out.sessions[0].key;
await engine.chatIndex(key); // the rows exist once the session is open; search adds only its fields
const heap = () => {
	for (let i = 0; i < 3; i++) gc();
	return process.memoryUsage().heapUsed;
};
const before = heap();
const built = await engine.prepareSearch([key]);
const after = heap();
console.log(JSON.stringify({ fileBytes: bytes.length, chars: built.chars, fields: built.fields, addedBytes: after - before }));
