/**
 * The byte relay behind an established stream, for memory per listener close
 * to nginx's (docs/decisions/020-stream-memory.md has the measurements).
 *
 * What a Node listener costs, and what is done about each:
 * - Socket reads: a plain pipe gets a fresh buffer per read, and at ~16 KB/s
 *   per listener those pile up as garbage between collections. Upstream
 *   sockets come from our agent and read into one small buffer shared by all
 *   of them (net's `onread`): a read is handled at once, so the buffer is free
 *   again before the next read, unless the listener's socket kept a view of it
 *   (a write the kernel did not take whole): then that buffer is the write's,
 *   and reads go into a new one.
 * - HTTP parsers: Node keeps one per connection, about 10 KiB each, for the
 *   life of the connection. Once the stream flows neither side parses HTTP any
 *   more: both are handed back to Node's parser pool, as Node does itself when
 *   a connection is upgraded (see releaseServerParser).
 * - Queues: at most QUEUE_BYTES wait in Node for a listener; beyond that the
 *   relay stops reading the upstream, whose kernel buffers then hold the rest.
 * - Listeners of 'close' and 'end' (here, in proxy.ts and in the request log)
 *   use `on`, not `once`: both events come once, and `once` wraps each
 *   handler in a closure held for the life of the stream.
 *
 * Until the response headers are in, every read is copied to Node's HTTP
 * parser as usual, so http-proxy-middleware sees a normal exchange. Only
 * close-delimited upstream bodies (Icecast's HTTP/1.0 answer) are relayed this
 * way; chunked or sized bodies go through the parser and a pipe.
 */
import { freeParser } from 'node:_http_common';
import { Agent, type ClientRequestArgs, type IncomingMessage } from 'node:http';
import { createConnection, type NetConnectOpts, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createFrameAligner } from '../audio/mp3-frames.ts';

/** A listener's audio arrives in pieces of at most this. */
const READ_BUFFER_BYTES = 4 * 1024;
/** Bytes waiting in Node for one listener before the relay stops reading its upstream. */
const QUEUE_BYTES = 16 * 1024;

const EMPTY = Buffer.alloc(0);

/** The read buffer of every upstream socket (see above). */
let readBuffer = Buffer.allocUnsafeSlow(READ_BUFFER_BYTES);

interface UpstreamState {
  /** Set once the stream is relayed: takes each read; returns whether to keep reading. */
  sink: ((bytes: Buffer) => boolean) | null;
}

const upstreams = new WeakMap<Duplex, UpstreamState>();

/** Node's per-connection HTTP parser, which it keeps on the socket (undocumented, stable since Node 0.x). */
type WithParser = Socket & { parser?: object | null };

/** Makes upstream connections that read into the shared buffer (see above). */
export class RelayAgent extends Agent {
  constructor() {
    // No pooling: a stream connection is never reused; no cap: one connection per listener.
    super({ keepAlive: false, maxSockets: Infinity });
  }

  override createConnection(options: ClientRequestArgs): Duplex {
    const state: UpstreamState = { sink: null };
    const socket: Socket = createConnection({
      ...(options as NetConnectOpts),
      onread: {
        buffer: () => readBuffer,
        callback: (size: number, buffer: Uint8Array) => {
          const bytes = Buffer.from(buffer.buffer, buffer.byteOffset, size);
          if (state.sink) return state.sink(bytes);
          // Headers phase: Node's HTTP client parses a copy, exactly as if the socket had pushed it.
          socket.emit('data', Buffer.from(bytes));
          // The headers made us relay: the client's parser is done (and not inside a parse any more).
          if (state.sink) releaseClientParser(socket);
          return true;
        },
      },
    });
    upstreams.set(socket, state);
    return socket;
  }
}

/** Gives the upstream connection's parser back: from now on the relay reads the socket, not Node's HTTP client. */
function releaseClientParser(socket: WithParser): void {
  const parser = socket.parser;
  if (!parser) return;
  // What Node does on an upgraded client connection; its close handlers expect `parser` may be gone.
  freeParser(parser, (socket as { _httpMessage?: unknown })._httpMessage ?? null, socket);
}

/**
 * Gives the listener connection's parser back. Node's server reads the socket
 * through the parser (consume) and its 'data'/'end' handlers hold it; Node
 * detaches exactly these when a connection is upgraded. A listener sends
 * nothing after its request (the response says Connection: close): whatever
 * it sends is dropped, and its end ends the stream. If this Node wires its
 * server differently (the handlers are not found), the parser simply stays.
 */
function releaseServerParser(socket: WithParser): void {
  const parser = socket.parser;
  const onData = socket.listeners('data').find((f) => f.name === 'bound socketOnData');
  const onEnd = socket.listeners('end').find((f) => f.name === 'bound socketOnEnd');
  if (!parser || !onData || !onEnd) return;
  socket.off('data', onData as (chunk: Buffer) => void);
  socket.off('end', onEnd as () => void);
  freeParser(parser, null, socket);
  socket.on('data', () => {});
  socket.on('end', () => socket.destroy());
}

export interface Relay {
  /** Bytes that reached the HTTP parser along with the headers (copies), in order, before the relayed ones. */
  push(chunk: Buffer): void;
}

/**
 * Sends everything the upstream socket reads from now on to the listener's
 * socket (after its response headers). With `alignMp3`, the first bytes up
 * to the first run of valid MP3 frames are dropped (see createFrameAligner).
 * Returns null when the response's socket is not one of the agent's.
 */
export function relayStream(upstreamResponse: IncomingMessage, listener: Socket, alignMp3: boolean): Relay | null {
  const upstream = upstreamResponse.socket as Socket;
  const state = upstreams.get(upstream);
  if (!state) return null;
  let aligner = alignMp3 ? createFrameAligner() : null;
  let paused = false;

  const write = (bytes: Buffer, owned: boolean): boolean => {
    if (!listener.writable) return false;
    // Behind already: queue a copy, the shared buffer must stay free.
    if (!owned && listener.writableLength > 0) {
      bytes = Buffer.from(bytes);
      owned = true;
    }
    listener.write(bytes);
    // The kernel did not take it all: the pending write now holds the buffer, so reads go into a new one.
    if (!owned && listener.writableLength > 0) readBuffer = Buffer.allocUnsafeSlow(READ_BUFFER_BYTES);
    if (listener.writableLength < QUEUE_BYTES) return true;
    // The listener is behind: stop reading until its queue is written out (an empty write's callback comes
    // after every write before it); meanwhile the kernel holds the rest upstream.
    // The upstream's idle timer is for its silence, not ours: off while we do not read (the listener's own
    // send timeout covers a listener that never catches up).
    if (!paused) {
      paused = true;
      const idleMs = upstream.timeout ?? 0;
      upstream.setTimeout(0);
      listener.write(EMPTY, () => {
        paused = false;
        upstream.setTimeout(idleMs);
        upstream.resume();
      });
    }
    return false;
  };

  const take = (bytes: Buffer, owned: boolean): boolean => {
    if (!aligner) return write(bytes, owned);
    const start = aligner.push(bytes);
    if (start === null) return true;
    aligner = null;
    return write(start, true);
  };

  // A close-delimited body is complete when the upstream closes: the parser would have said so, but it
  // is handed back, and a response closed incomplete counts as aborted (the listener's queued audio is cut).
  upstream.on('end', () => {
    upstreamResponse.complete = true;
  });
  releaseServerParser(listener);
  state.sink = (bytes) => take(bytes, false);
  return { push: (chunk) => void take(chunk, true) };
}
