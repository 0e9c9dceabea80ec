/**
 * Rendered pages, kept with their gzip and brotli bytes. Pages are the same
 * for every visitor but for the date, so the key is the page and the Chicago
 * date; entries of other dates are dropped as the day turns.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export interface CachedPage {
  status: number;
  etag: string;
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
}

export async function compressPage(status: number, html: Buffer): Promise<CachedPage> {
  const [gzipped, brotlied] = await Promise.all([
    gz(html, { level: 9 }),
    brotli(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: html.length } }),
  ]);
  // Weak: the three encodings are the same page, so one validator serves them all.
  const etag = `W/"${createHash('sha1').update(html).digest('base64url').slice(0, 22)}"`;
  return { status, etag, identity: html, gzip: gzipped, br: brotlied };
}

export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  private date = '';

  get(pageId: string, date: string): CachedPage | undefined {
    return date === this.date ? this.entries.get(pageId) : undefined;
  }

  set(pageId: string, date: string, page: CachedPage): void {
    if (date !== this.date) {
      this.entries.clear();
      this.date = date;
    }
    this.entries.set(pageId, page);
  }

  get size(): number {
    return this.entries.size;
  }
}
