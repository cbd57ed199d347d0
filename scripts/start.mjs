// `npm start`: builds the viewer and serves it on http://localhost:4173/?sample, which opens the
// bundled sample session (static/sample). Opens a browser when the machine has one.
import { spawn, spawnSync } from 'node:child_process';

const PORT = process.env.PORT ?? '4173';
const build = spawnSync('npx', ['vite', 'build'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const url = `http://localhost:${PORT}/?sample`;
console.log(`\nLoupe is at ${url} (the sample session opens there). Ctrl-C stops it.\n`);
const server = spawn('npx', ['vite', 'preview', '--port', PORT, '--strictPort', '--open', '/?sample'], { stdio: 'inherit' });
server.on('exit', (code) => process.exit(code ?? 0));
