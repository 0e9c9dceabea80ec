/**
 * Every request, response and connection the server makes has one shape, whichever lane answered
 * (src/server/message-shapes.ts says why): the same prototype and the same own fields in the same
 * order once its answer is sent. Through the real lifecycle (startServer), one connection per
 * request, as a browser's first visit makes them.
 */
import { Agent, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../src/server/lifecycle.ts';
import { createLogger } from '../src/server/logger.ts';
import { appFor, testConfig } from './support/test-app.ts';
import { until, untilValue } from './support/wait.ts';

/** What V8 builds an object's shape from, as far as JavaScript can see it. */
const shapeOf = (o: object) => ({
  prototype: Object.getPrototypeOf(o) as object,
  fields: [...Object.keys(o), ...Object.getOwnPropertySymbols(o).map(String)],
});

type Shape = ReturnType<typeof shapeOf>;

interface Answered {
  status: number;
  /** Only answers from the page cache carry one on this page (the first render streams). */
  etag: string | undefined;
  req: Shape;
  res: Shape;
  socket: Shape;
}

/** Targets of the other lanes, after the render and the fast lane: a 404 page, a route, a file, health, the stream lane. */
const TARGETS = ['/no-such-page', '/robots.txt', '/favicon.ico', '/healthz', '/api/stream?port=1'];

describe('one shape per kind of object, whichever lane answers', () => {
  const config = { ...testConfig(), port: 0 };
  const app = appFor(config);
  let running: RunningServer;
  const seen: Array<{ req: IncomingMessage; res: ServerResponse; socket: Socket }> = [];

  beforeAll(async () => {
    running = await startServer(app.handle, config, createLogger(config.logLevel), app.messages);
    running.server.on('request', (req: IncomingMessage, res: ServerResponse) =>
      seen.push({ req, res, socket: req.socket }),
    );
  });
  afterAll(() => running.stop('test over'));

  /** One request on a connection of its own, kept alive until its answer is read, then closed. */
  async function ask(path: string): Promise<Answered> {
    const { port } = running.server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true });
    const { status, etag } = await new Promise<{ status: number; etag: string | undefined }>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path, agent, headers: { 'Accept-Encoding': 'br' } }, (res) =>
        res.resume().once('end', () => resolve({ status: res.statusCode ?? 0, etag: res.headers.etag })),
      )
        .once('error', reject)
        .end();
    });
    const mine = seen.at(-1)!;
    await until(`the answer to ${path} to be sent`, () => mine.res.writableFinished);
    agent.destroy();
    await until(`the connection of ${path} to close`, () => mine.socket.destroyed);
    return { status, etag, req: shapeOf(mine.req), res: shapeOf(mine.res), socket: shapeOf(mine.socket) };
  }

  it('requests, responses and connections of every lane match the cached page’s', async () => {
    const answers: Array<[string, Answered]> = [['/', await ask('/')]];
    // The home page again once the page cache holds it: the fast lane's answer.
    const cached = await untilValue('the home page from the page cache', async () => {
      const answered = await ask('/');
      return answered.etag ? answered : undefined;
    });
    answers.push(['/', cached]);
    for (const target of TARGETS) answers.push([target, await ask(target)]);
    expect(answers.map(([target, a]) => `${target} ${a.status}`)).toEqual([
      '/ 200',
      '/ 200',
      '/no-such-page 404',
      '/robots.txt 200',
      '/favicon.ico 200',
      '/healthz 200',
      '/api/stream?port=1 400',
    ]);
    for (const [target, answered] of answers) {
      expect(answered.req, `request of ${target}`).toEqual(cached.req);
      expect(answered.res, `response of ${target}`).toEqual(cached.res);
      expect(answered.socket, `connection of ${target}`).toEqual(cached.socket);
    }
  });
});
