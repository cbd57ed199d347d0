// Debian's nginx on a loopback port over a folder, with a generated configuration: the folder as
// /json/ (JSON autoindex), /html/ (HTML autoindex), /plain/ (no listing: a loupe.json is read),
// /norange/ (no Range), /nocors/ (no CORS headers); CORS headers and Range as nginx serves them
// elsewhere; `forbidden-*.jsonl` answers 403 and /json/projects/moved/ redirects to another
// origin. Plain JavaScript so both the tests (tests/servers/remote.ts) and the benchmark
// (scripts/lib/bench-remote.mjs) start it. The access log has each request's bytes sent.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const NGINX = '/usr/sbin/nginx';

/** @returns {Promise<number>} a port free on 127.0.0.1 now */
export function freePort() {
  return new Promise((done, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const addr = /** @type {import('node:net').AddressInfo} */ (s.address());
      s.close(() => done(addr.port));
    });
  });
}

/**
 * @typedef {{ method: string; uri: string; status: number; bytes: number }} LogLine
 * @typedef {{ origin: string; log: () => LogLine[]; stop: () => Promise<void> }} Nginx
 */

/** @param {string} root the folder served  @returns {Promise<Nginx>} */
export async function startNginx(root) {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is missing: apt-get install nginx (.ci/run does)`);
  const port = await freePort();
  const other = await freePort();
  const prefix = mkdtempSync(join(tmpdir(), 'loupe-nginx-'));
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(prefix, d));
  const cors = `add_header Access-Control-Allow-Origin * always;
    add_header Access-Control-Allow-Headers Range always;
    add_header Access-Control-Expose-Headers "Content-Range, Content-Length, ETag, Last-Modified, Accept-Ranges" always;`;
  const conf = `daemon off;
master_process off;
worker_processes 1;
user root;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 512; }
http {
  log_format sent '$request_method $request_uri $status $bytes_sent';
  access_log ${prefix}/access.log sent;
  client_body_temp_path ${prefix}/body; proxy_temp_path ${prefix}/proxy; fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi; scgi_temp_path ${prefix}/scgi;
  types { application/json json; application/x-ndjson jsonl; text/plain txt; }
  default_type application/octet-stream;
  sendfile on;
  server {
    listen 127.0.0.1:${port};
    ${cors}
    if ($request_method = OPTIONS) { return 204; }
    location ~ /forbidden-[^/]*\\.jsonl$ { return 403; }
    location = /json/projects/moved/ { return 302 http://127.0.0.1:${other}/elsewhere/; }
    location /json/ { alias ${root}/; autoindex on; autoindex_format json; }
    location /html/ { alias ${root}/; autoindex on; }
    location /plain/ { alias ${root}/; }
    location /norange/ { alias ${root}/; autoindex on; autoindex_format json; max_ranges 0; }
    location /nocors/ { alias ${root}/; autoindex on; autoindex_format json; add_header X-Cors none; }
  }
}
`;
  writeFileSync(join(prefix, 'nginx.conf'), conf);
  const proc = spawn(NGINX, ['-c', join(prefix, 'nginx.conf'), '-p', prefix], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => (stderr += d));
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (proc.exitCode !== null) throw new Error(`nginx exited: ${stderr}${readIf(join(prefix, 'error.log'))}`);
    if (await fetch(`${origin}/plain/`).then(() => true, () => false)) break;
    if (i > 200) throw new Error('nginx did not start');
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    origin,
    log: () =>
      readIf(join(prefix, 'access.log'))
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          const [method, uri, status, bytes] = l.split(' ');
          return { method, uri, status: Number(status), bytes: Number(bytes) };
        }),
    stop: async () => {
      if (proc.exitCode === null) {
        const gone = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await gone;
      }
      rmSync(prefix, { recursive: true, force: true });
    }
  };
}

/** @param {string} p */
function readIf(p) {
  return existsSync(p) ? readFileSync(p, 'utf8') : '';
}
