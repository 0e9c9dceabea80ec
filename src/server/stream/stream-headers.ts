/**
 * Which of the upstream's response headers reach a listener, and the stream's own. Only audio is
 * relayed: anyone with the station's source password chooses the upstream's Content-Type, and
 * text/html (or anything a browser might render) on our origin would be theirs to write.
 */
import type { ServerResponse } from 'node:http';

export type HeaderList = [name: string, value: string][];

/**
 * Response headers that describe the stream. Not `icy-metaint` (we never ask for metadata) nor
 * `icy-url` (often the upstream's internal address).
 */
function describesStream(name: string): boolean {
  return (
    name === 'content-type' ||
    name === 'ice-audio-info' ||
    (name.startsWith('icy-') && name !== 'icy-metaint' && name !== 'icy-url')
  );
}

/** The describing headers of an upstream answer, first value of each (Icecast may repeat some). */
export function streamHeaders(rawHeaders: string[]): HeaderList {
  const headers = new Map<string, string>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (describesStream(name) && !headers.has(name)) headers.set(name, rawHeaders[i + 1]!);
  }
  return [...headers];
}

/** What HEAD says before any listener has seen the upstream's own headers. */
export const DEFAULT_STREAM_HEADERS: HeaderList = [['content-type', 'audio/mpeg']];

/** The stream's answer headers, the same for GET and HEAD. */
export function setStreamHeaders(res: ServerResponse, headers: HeaderList): void {
  res.statusCode = 200;
  for (const [name, value] of headers) {
    try {
      res.setHeader(name, value);
    } catch {
      /* a value Node will not send is simply dropped */
    }
  }
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Accel-Buffering', 'no');
  // The body ends with the connection, as Icecast's does (no chunked framing around the audio).
  res.setHeader('Connection', 'close');
  res.removeHeader('Transfer-Encoding');
}
