/**
 * The client's address for every lane (the request log, the stream's limits per client), as
 * Express's req.ip: the socket's peer, or, behind a proxy TRUST_PROXY names, the X-Forwarded-For
 * hop proxy-addr picks. proxy-addr parses every address in the header on each call (about 1 µs,
 * a few per cent of a cached page, on every request through nginx); its answer depends only on the
 * peer and the header, so the answers for recent pairs are kept (nginx has a handful of addresses,
 * and a reader's requests repeat their header). Bounded: emptied when full, so headers a client
 * invents cost it no lasting memory and no more time than before.
 */
import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';
import type { ProxyTrust } from './config.ts';

export const REMEMBERED_MAX = 1024;

export type ClientIp = (req: IncomingMessage) => string | undefined;

export function clientIpOf(trust: ProxyTrust | false): ClientIp {
  if (!trust) return (req) => req.socket.remoteAddress;
  const answers = new Map<string, string | undefined>();
  return (req) => {
    const forwarded = req.headers['x-forwarded-for'];
    // Without the header the answer is the peer: nothing to parse.
    if (forwarded === undefined) return req.socket.remoteAddress;
    const key = `${req.socket.remoteAddress}\n${forwarded}`;
    const known = answers.get(key);
    if (known !== undefined) return known;
    const answer = proxyaddr(req, trust);
    if (answers.size >= REMEMBERED_MAX) answers.clear();
    answers.set(key, answer);
    return answer;
  };
}
