// s3rver (npm) on a loopback port, for tests/servers/remote.ts: a bucket with a CORS configuration
// (GET and HEAD from any origin; ETag and Content-Range exposed). A child process because s3rver
// 3.7.1 makes its ListObjectsV2 continuation tokens with DES, which Node 20's OpenSSL 3 has only
// under --openssl-legacy-provider, a flag a running process cannot turn on. Prints the port.
import S3rver from 's3rver';

const [directory, bucket] = process.argv.slice(2);
const cors = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><ExposeHeader>Content-Range</ExposeHeader><ExposeHeader>Content-Length</ExposeHeader><MaxAgeSeconds>600</MaxAgeSeconds></CORSRule></CORSConfiguration>`;
const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [cors] }] });
const { port } = await server.run();
process.stdout.write(`${port}\n`);
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
