import type { ServerResponse } from 'node:http';

export const SERVER_ERROR_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Server error</title>' +
  '<meta name="viewport" content="width=device-width, initial-scale=1"></head>' +
  '<body><h1>Something went wrong</h1><p>We could not show this page. Please try again in a moment.</p>' +
  '<p><a href="/">Return to Home</a></p></body></html>';

/** A plain 500 page (no React, nothing that could fail again); a response already under way is cut. */
export function sendServerError(res: ServerResponse): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.statusCode = 500;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Length', Buffer.byteLength(SERVER_ERROR_HTML));
  res.end(SERVER_ERROR_HTML);
}
