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
 *
 * BARE_AFTER_EXPRESS=N: before it listens, the process answers N requests through an Express app
 * of its own (a JSON answer and a 404) on another port. That is all the app's Express lane does
 * to a process besides its own answers: V8 then compiles Node's HTTP code for the shapes Express
 * gives requests and responses as well, and the bare answers cost more (decision 016).
 */
import { readFileSync } from 'node:fs';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';

const [bodyFile, headersFile] = process.argv.slice(2);
const port = Number(process.env.PORT);
if (!port || !bodyFile || !headersFile) throw new Error('usage: PORT=… bare-node.ts BODY_FILE HEADERS_JSON_FILE');
const body = readFileSync(bodyFile);
const headers = (JSON.parse(readFileSync(headersFile, 'utf8')) as Array<[string, string]>).flat();

/** `count` requests through an Express app on another port, answered and closed before the peer listens. */
async function answerThroughExpress(count: number): Promise<void> {
  if (count <= 0) return;
  const app = express()
    .get('/json', (_req, res) => void res.json({ answered: true }))
    .use((_req, res) => void res.status(404).send('Not Found'));
  const server = createServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port: expressPort } = server.address() as AddressInfo;
  for (let i = 0; i < count; i++) {
    const path = i % 2 === 0 ? '/json' : '/missing';
    await new Promise<void>((resolve, reject) =>
      get({ host: '127.0.0.1', port: expressPort, path }, (r) => r.resume().once('end', resolve)).once('error', reject),
    );
  }
  await new Promise((resolve) => server.close(resolve));
}

await answerThroughExpress(Number(process.env.BARE_AFTER_EXPRESS ?? 0));

createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
}).listen(port, process.env.HOST ?? '127.0.0.1');

// Exit on a signal like the app (so `--cpu-prof` writes its profile).
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(0));
