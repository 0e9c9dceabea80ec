/**
 * Run by test/deploy/nginx-one-client.test.ts as root inside a network namespace of its own
 * (`unshare --net`), where this process gives the loopback interface addresses of one IPv6 /64
 * (fd00:33::/64, a unique local prefix that exists nowhere but in this namespace, and goes with
 * it). It starts three app processes behind deploy/nginx.conf (also listening on fd00:33::1),
 * opens `STREAMS` radio streams from as many addresses of that /64, and prints one JSON line: the
 * statuses, and how many streams sent audio.
 */
import { execFileSync } from 'node:child_process';
import type { ClientRequest } from 'node:http';
import { request } from 'node:https';
import { startApp, type AppProcess } from '../support/app-process.ts';
import { startNginx, type DeployNginx } from '../support/nginx.ts';

const PREFIX = 'fd00:33::';
const SERVER = `${PREFIX}1`;
/** Nothing else listens in a new namespace: any port is free. */
const SERVER_PORT = 8443;
const STREAMS = Number(process.argv[2] ?? 40);
const PROCESSES = 3;
/** Only stops a hung run. */
const HANG_LIMIT_MS = 30_000;

interface Opened {
  status: number;
  audio: Promise<boolean>;
  req: ClientRequest;
}

function open(nginx: DeployNginx, from: string): Promise<Opened> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: SERVER,
        port: SERVER_PORT,
        path: '/api/stream?port=8076',
        localAddress: from,
        ca: nginx.certificate.cert,
        // The certificate names 127.0.0.1 and localhost; the address here is this namespace's own.
        checkServerIdentity: () => undefined,
        agent: false,
      },
      (res) => {
        const audio = new Promise<boolean>((done) => {
          const hang = setTimeout(() => done(false), HANG_LIMIT_MS);
          res.once('data', () => {
            clearTimeout(hang);
            done(res.statusCode === 200);
          });
          res.once('end', () => done(false));
          res.on('error', () => done(false));
        });
        resolve({ status: res.statusCode ?? 0, audio, req });
      },
    );
    req.on('error', () => resolve({ status: 0, audio: Promise.resolve(false), req }));
    req.end();
  });
}

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'inherit'] });

ip('link', 'set', 'lo', 'up');
for (let i = 1; i <= STREAMS + 1; i++) ip('-6', 'addr', 'add', `${PREFIX}${i.toString(16)}/64`, 'dev', 'lo', 'nodad');

const apps: AppProcess[] = [];
let nginx: DeployNginx | undefined;
const opened: Opened[] = [];
try {
  for (let i = 0; i < PROCESSES; i++)
    apps.push(await startApp({ SITE_URL: 'https://news.example.com', TRUST_PROXY: 'loopback' }, { name: `app-${i}` }));
  nginx = await startNginx({
    upstreams: apps.map((a) => a.port),
    // The HTTPS server on this namespace's address too, beside the harness's 127.0.0.1 port.
    edit: (site) => site.replace(/^(\s*)listen \[::\]:443 ([^;]*);$/m, `$&\n$1listen [${SERVER}]:${SERVER_PORT} $2;`),
  });
  const from = (i: number) => `${PREFIX}${(i + 2).toString(16)}`;
  opened.push(...(await Promise.all(Array.from({ length: STREAMS }, (_, i) => open(nginx!, from(i))))));
  const statuses: Record<string, number> = {};
  for (const { status } of opened) statuses[status] = (statuses[status] ?? 0) + 1;
  const audio = (await Promise.all(opened.map((o) => o.audio))).filter(Boolean).length;
  console.log(JSON.stringify({ streams: STREAMS, statuses, audio }));
} finally {
  for (const o of opened) o.req.destroy();
  await nginx?.stop();
  await Promise.all(apps.map((a) => a.stop()));
}
