/**
 * The byte relay behind an established stream, for memory per listener close
 * to nginx's.
 *
 * A plain Node pipe costs 160–230 KiB per listener: every socket read gets a
 * fresh buffer, and with ~16 KB/s per listener those buffers (and the chunked
 * encoding's bits) pile up as garbage between collections. Here upstream
 * sockets come from our agent and read into one small reusable buffer each
 * (net's `onread`). Until the response headers are in, every read is copied
 * to Node's HTTP parser as usual, so http-proxy-middleware sees a normal
 * exchange. Once the stream is accepted, reads go straight to the listener's
 * socket: written from the reusable buffer when the kernel takes them at once
 * (nothing to keep), copied only when the listener is behind.
 *
 * Only close-delimited upstream bodies (Icecast's HTTP/1.0 answer) are
 * relayed this way; chunked or sized bodies go through the parser and a pipe.
 */
import { Agent, type ClientRequestArgs } from 'node:http';
import { createConnection, type NetConnectOpts, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { findFrameSync } from './mp3-frames.ts';

/** Per upstream socket; a listener's audio arrives in pieces of at most this. */
const READ_BUFFER_BYTES = 4 * 1024;
/** Give up looking for the first MP3 frame after this much (then relay as is). */
const MAX_SYNC_SEARCH = 32 * 1024;

interface UpstreamState {
  buffer: Buffer;
  /** Set once the stream is relayed: takes each read; returns whether to keep reading. */
  sink: ((bytes: Buffer) => boolean) | null;
}

const upstreams = new WeakMap<Duplex, UpstreamState>();

/** Makes upstream connections that read into a reusable buffer (see above). */
export class RelayAgent extends Agent {
  constructor() {
    // No pooling: a stream connection is never reused; no cap: one connection per listener.
    super({ keepAlive: false, maxSockets: Infinity });
  }

  override createConnection(options: ClientRequestArgs): Duplex {
    const state: UpstreamState = { buffer: Buffer.allocUnsafeSlow(READ_BUFFER_BYTES), sink: null };
    const socket: Socket = createConnection({
      ...(options as NetConnectOpts),
      onread: {
        buffer: () => state.buffer,
        callback: (size: number, buffer: Uint8Array) => {
          const bytes = Buffer.from(buffer.buffer, buffer.byteOffset, size);
          if (state.sink) return state.sink(bytes);
          // Headers phase: Node's HTTP client parses a copy, exactly as if the socket had pushed it.
          socket.emit('data', Buffer.from(bytes));
          return true;
        },
      },
    });
    upstreams.set(socket, state);
    return socket;
  }
}

export interface Relay {
  /** Bytes that reached the HTTP parser along with the headers (copies), in order, before the relayed ones. */
  push(chunk: Buffer): void;
}

/**
 * Sends everything the upstream socket reads from now on to the listener's
 * socket (after its response headers). With `alignMp3`, the first bytes up
 * to the first run of valid MP3 frames are dropped (Icecast's burst starts
 * mid-frame, and Chrome then probes for seconds before it plays).
 * Returns null when the socket is not one of the agent's.
 */
export function relayStream(upstream: Duplex, listener: Socket, alignMp3: boolean): Relay | null {
  const state = upstreams.get(upstream);
  if (!state) return null;
  let head: Buffer | null = alignMp3 ? Buffer.alloc(0) : null;
  let waitingForDrain = false;

  const write = (bytes: Buffer, owned: boolean): boolean => {
    if (!listener.writable) return false;
    // Behind already: queue a copy, the reusable buffer must stay free.
    if (!owned && listener.writableLength > 0) {
      bytes = Buffer.from(bytes);
      owned = true;
    }
    const roomLeft = listener.write(bytes);
    // The kernel did not take it all: the pending write now holds the buffer, so read into a new one.
    if (!owned && listener.writableLength > 0) state.buffer = Buffer.allocUnsafeSlow(READ_BUFFER_BYTES);
    if (roomLeft) return true;
    // The listener's queue is full (its high-water mark): stop reading; the kernel holds the rest upstream.
    if (!waitingForDrain) {
      waitingForDrain = true;
      listener.once('drain', () => {
        waitingForDrain = false;
        upstream.resume();
      });
    }
    return false;
  };

  const take = (bytes: Buffer, owned: boolean): boolean => {
    if (head === null) return write(bytes, owned);
    head = Buffer.concat([head, bytes]);
    const at = findFrameSync(head, 0, 3);
    if (at < 0 && head.length < MAX_SYNC_SEARCH) return true;
    const start = head.subarray(Math.max(at, 0));
    head = null;
    return write(start, true);
  };

  state.sink = (bytes) => take(bytes, false);
  return { push: (chunk) => void take(chunk, true) };
}
