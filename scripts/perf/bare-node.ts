/**
 * The peer for `npm run bench`: a bare Node `http` server that answers every request with the same
 * bytes and headers the app sends for a cached page, and does nothing else (no routing, no log, no
 * conditional requests). What the app costs above it is the app's own work; what it costs above
 * nginx is Node's.
 *
 *   node scripts/perf/bare-node.ts PORT BODY_FILE HEADERS_JSON_FILE
 *
 * HEADERS_JSON_FILE holds [name, value] pairs. Prints "listening" once it is.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, bodyFile, headersFile] = process.argv.slice(2);
if (!port || !bodyFile || !headersFile) throw new Error('usage: bare-node.ts PORT BODY_FILE HEADERS_JSON_FILE');
const body = readFileSync(bodyFile);
const headers = (JSON.parse(readFileSync(headersFile, 'utf8')) as Array<[string, string]>).flat();

createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(port), '127.0.0.1', () => console.log('listening'));
