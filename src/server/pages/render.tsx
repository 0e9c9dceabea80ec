/**
 * Renders one page document with renderToPipeableStream. Browsers get bytes at shell-ready;
 * crawlers and HEAD get nothing from here and the complete document back (the caller sends it
 * with a length and validators). Either way the document's bytes are captured for the cache.
 */
import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import type { ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import type { BootData } from '../../shared/boot.ts';
import { Document } from '../../shared/ui/Document.tsx';
import { StaticNavigation } from '../../shared/ui/navigation.tsx';
import { Site } from '../../shared/ui/Site.tsx';
import type { Logger } from 'pino';
import { cut } from '../request-log.ts';
import { HTML_TYPE } from './page-cache.ts';
import { sendServerError } from './server-error.ts';

export interface RenderJob {
  /** The location the page renders at: the path that chose the page, never the raw request target. */
  location: string;
  status: number;
  boot: BootData;
  /** The site's CSS, inlined in the head. */
  styles: string;
  /** The complete document at once (crawlers, HEAD) instead of streaming from shell-ready. */
  wholeDocument: boolean;
  /** Sent with a streamed document, read when its head is written (pages/shared-cache.ts). */
  cacheControl: () => string;
}

export interface RenderOptions {
  logger: Logger;
  timeoutMs: number;
  /** Tests swap in an app tree that throws or hangs. */
  appTree?: (location: string) => ReactNode;
}

/**
 * Resolves with the document's bytes once React is done, or with undefined when the render
 * failed or the visitor left; a failure is answered here (500 page, or the stream cut short).
 */
export function renderDocument(
  res: ServerResponse,
  job: RenderJob,
  options: RenderOptions,
): Promise<Buffer | undefined> {
  const { location, status, boot, styles, wholeDocument, cacheControl } = job;
  const { logger } = options;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let failed = false;
    let finished = false;
    // No backpressure from the first visitor's connection: the whole page is kept in memory
    // anyway, and a slow client must not hold up the render others are waiting for.
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        if (!wholeDocument) res.write(chunk);
        done();
      },
      final(done) {
        if (!wholeDocument) res.end();
        done();
      },
    });
    // React calls flush() after each batch: pass it on so compression sends what it has.
    (sink as Writable & { flush(): void }).flush = () => (res as ServerResponse & { flush?: () => void }).flush?.();

    let timer: NodeJS.Timeout | undefined;
    const { pipe, abort } = renderToPipeableStream(
      <Document boot={boot} styles={styles}>
        <StaticNavigation location={location} page={boot.page}>
          {options.appTree ? options.appTree(location) : <Site />}
        </StaticNavigation>
      </Document>,
      {
        // React outlines a completed Suspense boundary larger than this (default ~12.8 KB) and
        // reveals it with an inline script, which our CSP blocks: the page would then render twice.
        // Pages never suspend (modules are preloaded), so inline every boundary.
        progressiveChunkSize: Number.MAX_SAFE_INTEGER,
        onShellReady() {
          if (wholeDocument) return;
          res.statusCode = status;
          res.setHeader('Content-Type', HTML_TYPE);
          res.setHeader('Cache-Control', cacheControl());
          res.setHeader('Vary', 'Accept-Encoding');
          pipe(sink);
        },
        onAllReady() {
          if (wholeDocument) pipe(sink);
        },
        onShellError(error) {
          failed = true;
          clearTimeout(timer);
          logger.error({ err: error, location: cut(location) }, 'page shell failed to render');
          sendServerError(res);
          resolve(undefined);
        },
        onError(error) {
          failed = true;
          if (!res.destroyed) logger.error({ err: error, location: cut(location) }, 'page render error');
        },
      },
    );
    timer = setTimeout(() => abort(new Error(`render exceeded ${options.timeoutMs} ms`)), options.timeoutMs);
    res.once('close', () => {
      clearTimeout(timer);
      // The visitor left before the page was complete: stop rendering.
      if (!finished) {
        abort();
        resolve(undefined);
      }
    });
    sink.once('finish', () => {
      finished = true;
      clearTimeout(timer);
      if (!failed) return resolve(Buffer.concat(chunks));
      if (wholeDocument) sendServerError(res);
      resolve(undefined);
    });
  });
}
