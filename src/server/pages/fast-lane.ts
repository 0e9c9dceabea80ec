/**
 * The page fast lane, at the head of the Node server's request handler: a GET or HEAD of a
 * page's canonical path, already rendered today, is answered straight from memory, before
 * Express builds its request and response. It gives the answer the full chain would give, byte
 * for byte (the security headers first in the page's prepared lists, ETag/304, content coding;
 * the front door writes the same request-log line; a test holds it to that). Anything else (other forms of the target, variants, 404s, a miss) returns false
 * and goes on to Express unchanged.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendPage, type PageCache } from './page-cache.ts';
import { pageAtPath } from '../../shared/pages.ts';
import { pathOf } from '../request-target.ts';

export type FastLane = (req: IncomingMessage, res: ServerResponse) => boolean;

/** `cacheControl`: a page's Cache-Control now (pages/shared-cache.ts). */
export function createFastLane(cache: PageCache, cacheControl: () => string): FastLane {
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url ?? '';
    // Origin form only ("/path?query"); an absolute-form target takes the full chain.
    if (url.charCodeAt(0) !== 0x2f) return false;
    const page = pageAtPath(pathOf(url));
    if (!page) return false;
    const cached = cache.get(page.id);
    if (!cached) return false;
    sendPage(req, res, cached, 'none', cacheControl());
    return true;
  };
}
