/**
 * The peer of nginx's page cache: the same bytes from gzip_static, in deploy/nginx.conf's own HTTPS
 * server, with a cache hit's header lines (`npm run bench`'s "nginx tls static"), and the cache
 * warmed before either is measured.
 */
import type { DeployNginx } from '../../test/support/nginx.ts';
import { untilValue } from '../../test/support/wait.ts';
import { fetchBytes } from './fetch-bytes.ts';

/** Headers nginx writes itself for a static file (Content-Type with `charset`, Vary with `gzip_vary`). */
const WRITTEN_BY_NGINX = /^(content-type|content-length|content-encoding|vary|strict-transport-security)$/i;

/**
 * What the static location adds so that it answers with the very header lines a cache hit sends:
 * the app's (security headers, Cache-Control, its ETag), HSTS and X-Cache-Status as the HTTPS
 * server adds them, and not nginx's own Last-Modified and ETag. A location with add_header lines
 * of its own drops the server's, so HSTS is repeated here.
 */
function sameHeadersAsCacheHit(appHeaders: Array<[string, string]>): string {
  const quoted = (value: string) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  const app = appHeaders.filter(([name]) => !WRITTEN_BY_NGINX.test(name));
  if (app.some(([, value]) => value.includes('$')))
    throw new Error('an app header has a "$": nginx would read a variable');
  return [
    'charset utf-8;',
    'etag off;',
    'add_header Last-Modified "";',
    ...app.map(([name, value]) => `add_header ${name} ${quoted(value)};`),
    'add_header Strict-Transport-Security "max-age=63072000; includeSubDomains" always;',
    'add_header X-Cache-Status HIT always;',
  ].join(' ');
}

/**
 * deploy/nginx.conf with one location added to its HTTPS server, before `location /api/`: the
 * home page's bytes from gzip_static with the header lines of a cache hit (the app's, as nginx
 * passes them on), the peer of the cached home page behind the same TLS, limit_conn and headers:
 * like for like, a static location that served this page to visitors would have to send them
 * too (printSetup checks both answers carry the same lines). Nothing else in the shipped file changes.
 */
export const withTlsStatic = (dir: string, appHeaders: Array<[string, string]>) => (source: string) => {
  const api = /^(\s*)location \/api\/ \{/m;
  if (!api.test(source)) throw new Error('deploy/nginx.conf: expected "location /api/ {" in the HTTPS server');
  const location = `location /static/ { root ${dir}/www; gzip_static on; gzip_vary on; ${sameHeadersAsCacheHit(appHeaders)} }`;
  return source.replace(api, `$1${location}\n$&`);
};

/** The home page in nginx's page cache: asked for (with `accept`) until nginx answers it from there (HIT). */
export async function warmNginxCache(nginx: DeployNginx, accept: string): Promise<void> {
  await untilValue("the home page to be a HIT in nginx's page cache", async () => {
    const r = await fetchBytes(`${nginx.httpsUrl}/`, accept, nginx.certificate.cert);
    return r.status === 200 && r.cacheStatus === 'HIT' ? r : undefined;
  });
}
