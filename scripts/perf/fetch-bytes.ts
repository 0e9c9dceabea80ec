/** One GET of a benchmark's target, read whole: what `npm run bench` checks before they measure. */

export async function fetchBytes(
  url: string,
  encoding: string,
  ca?: string,
): Promise<{
  status: number;
  encoding: string | null;
  body: Buffer;
  etag: string | null;
  cacheStatus: string | null;
  headers: Array<[string, string]>;
}> {
  const { request } = url.startsWith('https:') ? await import('node:https') : await import('node:http');
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'Accept-Encoding': encoding }, ...(ca && { ca }) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          encoding: (res.headers['content-encoding'] as string | undefined) ?? null,
          body: Buffer.concat(chunks),
          etag: (res.headers.etag as string | undefined) ?? null,
          cacheStatus: (res.headers['x-cache-status'] as string | undefined) ?? null,
          // As sent, less what Node's server adds by itself.
          headers: pairs(res.rawHeaders).filter(([name]) => !/^(date|connection|keep-alive)$/i.test(name)),
        }),
      );
    })
      .on('error', reject)
      .end();
  });
}

const pairs = (raw: string[]) =>
  raw.flatMap((name, i) => (i % 2 === 0 ? [[name, raw[i + 1]!] as [string, string]] : []));
