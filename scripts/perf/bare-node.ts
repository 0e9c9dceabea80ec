/**
 * The peer for `npm run bench`: a bare Node `http` server that answers every request with the same
 * bytes and headers the app sends for a cached page, and does nothing else (no routing, no log, no
 * conditional requests). What the app costs above it is the app's own work; what it costs above
 * nginx is Node's.
 *
 *   PORT=… [HOST=127.0.0.1] node scripts/perf/bare-node.ts BODY_FILE HEADERS_JSON_FILE
 *
 * HEADERS_JSON_FILE holds [name, value] pairs. It answers /healthz too, so the harness's
 * startApp() can start it like the app.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [bodyFile, headersFile] = process.argv.slice(2);
const port = Number(process.env.PORT);
if (!port || !bodyFile || !headersFile) throw new Error('usage: PORT=… bare-node.ts BODY_FILE HEADERS_JSON_FILE');
const body = readFileSync(bodyFile);
const headers = (JSON.parse(readFileSync(headersFile, 'utf8')) as Array<[string, string]>).flat();

createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
}).listen(port, process.env.HOST ?? '127.0.0.1');

// Exit on a signal like the app (so `--cpu-prof` writes its profile).
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(0));
