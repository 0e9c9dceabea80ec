/**
 * What counting the rewind window's listeners from nginx's log costs the app process that counts
 * (decision 055): nginx's syslog lines (the shipped log_format) sent to the app's receiver
 * (src/server/rewind/access-log.ts → stream/window-listening.ts) at a steady rate from another
 * process, for `--seconds`, from `--clients` distinct listeners; prints the receiver's CPU per
 * second of wall time and per line, and the lines counted. One line per segment fetched: 1,000
 * lines a second is 6,000 listeners of 6 s segments.
 *   node scripts/bench-window-log.ts [--rate 1000] [--clients 1000] [--seconds 20]
 */
import { fork } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { receiveAccessLog } from '../src/server/rewind/access-log.ts';
import { createWindowListening } from '../src/server/stream/window-listening.ts';

const PORT = 8076;

if (process.argv[2] === 'send') {
  const [, , , port = '', rate = '', clients = '', seconds = ''] = process.argv;
  const socket = createSocket('udp4');
  let sent = 0;
  const total = Number(rate) * Number(seconds);
  const started = performance.now();
  const tick = () => {
    const due = Math.min(total, Math.round(((performance.now() - started) / 1000) * Number(rate)));
    for (; sent < due; sent++) {
      const client = sent % Number(clients);
      const entry = {
        uri: `/api/rewind/${PORT}/1795874400000-${Math.floor(sent / Number(clients))}.mp3`,
        status: '200',
        addr: `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`,
        ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
      };
      socket.send(`<190>Nov 29 02:01:23 news_rewind: ${JSON.stringify(entry)}`, Number(port), '127.0.0.1');
    }
    if (sent < total) setTimeout(tick, 10);
    else setTimeout(() => socket.close(() => process.exit(0)), 200);
  };
  tick();
} else {
  const { values } = parseArgs({
    options: {
      rate: { type: 'string', default: '1000' },
      clients: { type: 'string', default: '1000' },
      seconds: { type: 'string', default: '20' },
    },
  });
  const listening = createWindowListening({ segmentS: 6 });
  const probe = createSocket('udp4');
  const port = await new Promise<number>((resolve) => probe.bind(0, '127.0.0.1', () => resolve(probe.address().port)));
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const receiver = await receiveAccessLog({
    port,
    allowedPorts: [PORT],
    onSegment: ({ client, port: p }) => listening.fetched(client, p),
    log: pino({ level: 'silent' }),
  });
  const cpu = process.cpuUsage();
  const started = performance.now();
  const sender = fork(new URL(import.meta.url).pathname, [
    'send',
    String(port),
    values.rate,
    values.clients,
    values.seconds,
  ]);
  await new Promise((resolve) => sender.on('exit', resolve));
  const wallS = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  const lines = receiver.counted;
  console.log(
    `${lines} lines counted of ${Number(values.rate) * Number(values.seconds)} sent (${receiver.ignored} ignored), ` +
      `${values.clients} listeners, ${wallS.toFixed(1)} s: receiver CPU ${((cpuMs / 1000 / wallS) * 100).toFixed(2)} % of a core, ` +
      `${((cpuMs * 1000) / Math.max(1, lines)).toFixed(1)} µs per line; peak ${listening.peak(PORT)}, ` +
      `listener-seconds ${listening.seconds(PORT).toFixed(0)}`,
  );
  await receiver.stop();
}
