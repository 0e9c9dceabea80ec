/**
 * Random request targets: unknown paths built from every kind of escape (valid, invalid UTF-8,
 * malformed, encoded slashes and dots), traversal attempts, very long paths and query strings,
 * and bytes a request line may not carry. Each target knows the answer it must get.
 */
import { type Agent, request } from 'node:http';

export type Category =
  | 'unknown'
  | 'unknown+query'
  | 'traversal'
  | 'long'
  | 'page+query'
  | 'api/assets'
  | 'invalid bytes';

export interface FuzzCase {
  category: Category;
  /** The request target exactly as sent (latin1 for the invalid-bytes cases). */
  target: string;
  expected: number;
}

/** Deterministic PRNG (mulberry32), so a failing seed can be replayed with FUZZ_SEED. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
const SUB_DELIMS = "!$&'()*+,;=:@";
const ODD_ESCAPES = [
  '%',
  '%z',
  '%zz',
  '%G1',
  '%F',
  '%%',
  '%25',
  '%252e',
  '%00',
  '%0a',
  '%0d%0a',
  '%20',
  '%2f',
  '%2F',
  '%5c',
  '%2e',
  '%2e%2e',
  '%FF',
  '%FE%FF',
  '%C0%AE',
  '%C0%AF',
  '%E0%80%AF',
  '%ED%A0%80',
  '%F8%88%80%80%80',
  '%F4%90%80%80',
  '%E2%82',
  '%C3',
  '%80',
  '%E2%9C%93',
  '%F0%9F%98%80',
  '%u002e',
  '%uFFFF',
  '..',
  '.',
  '~',
  '%7e',
];
// Raw characters a request line may carry that URL syntax would normally escape.
const ODD_RAW = ['"', '<', '>', '\\', '^', '`', '{', '}', '|', '[', ']', '#'];
const TRAVERSALS = [
  '/../../etc/passwd',
  '/..%2f..%2fetc%2fpasswd',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/%252e%252e/%252e%252e/etc/passwd',
  '/..\\..\\..\\windows\\win.ini',
  '/..%5c..%5cwindows%5cwin.ini',
  '/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd',
  '/assets/../../package.json',
  '/assets/..%2f..%2fpackage.json',
  '/assets/%2e%2e/%2e%2e/dist/manifest.json',
  '/assets/../server/main.js',
  '/assets/..%2fserver%2fmain.js',
  '/assets/../../sourcemaps',
  '/.env',
  '/.git/config',
  '/package.json',
  '/dist/server/main.js',
  '/dist/manifest.json',
  '/node_modules/react/package.json',
  '/sourcemaps/',
  '/about/../../../../etc/shadow',
  '/about/..',
  '/books/%2e%2e/%2e%2e/etc/hosts',
  '/radio/.%2e/.%2e/proc/self/environ',
  '/%2e/%2e/%2e/etc/passwd',
  '/..;/..;/etc/passwd',
  '/;/../etc/passwd',
  '/about%00/../../etc/passwd',
];
/** Bodies that would mean a traversal worked. */
export const LEAK_MARKERS = [
  'root:x:0:0',
  '"dependencies"',
  '[core]',
  'sourceMappingURL=',
  'NODE_ENV=',
  'createServer(',
  '"pages":{',
];

/** The pieces targets are made of, drawn from one seeded sequence. */
class TargetText {
  readonly random: () => number;
  private readonly reserved: Set<string>;

  constructor(random: () => number, reserved: Set<string>) {
    this.random = random;
    this.reserved = reserved;
  }

  int(n: number): number {
    return Math.floor(this.random() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  piece(): string {
    const r = this.random();
    if (r < 0.45) return UNRESERVED[this.int(UNRESERVED.length)]!;
    if (r < 0.55) return SUB_DELIMS[this.int(SUB_DELIMS.length)]!;
    if (r < 0.62) return this.pick(ODD_RAW);
    if (r < 0.8) return `%${this.int(256).toString(16).padStart(2, '0').toUpperCase()}`;
    return this.pick(ODD_ESCAPES);
  }

  segment(max: number): string {
    return Array.from({ length: 1 + this.int(max) }, () => this.piece()).join('');
  }

  /** A first segment that names nothing the server serves. */
  unknownFirst(max: number): string {
    const s = this.segment(max);
    const d = decodedLower(s);
    const bare = d.replace(/^[./~]+|[./~]+$/g, '');
    const named = this.reserved.has(d) || this.reserved.has(bare);
    return named || d === '' || d === '.' || d === '..' || bare === '' ? `z${s}` : s;
  }

  unknownPath(segments: number, max: number): string {
    return `/${[this.unknownFirst(max), ...Array.from({ length: this.int(segments) }, () => this.segment(max))].join('/')}`;
  }

  query(max: number): string {
    const pairs = Array.from(
      { length: 1 + this.int(4) },
      () => `${this.segment(8)}${this.random() < 0.8 ? `=${this.segment(max)}` : ''}`,
    );
    return pairs.join(this.random() < 0.9 ? '&' : '&&').replace(/#/g, '%23');
  }
}

function decodedLower(s: string): string {
  try {
    return decodeURIComponent(s).toLowerCase();
  } catch {
    return s.toLowerCase();
  }
}

/** Long, but under the 16 KB header limit with the rest of the request. */
function longCase(text: TargetText): FuzzCase {
  let target = text.unknownPath(60, 40).replace(/#/g, '%23');
  while (target.length < 1_000 + text.int(9_000)) target += `/${text.segment(60).replace(/#/g, '%23')}`;
  if (text.random() < 0.3) target += `?${'q='.concat('x'.repeat(text.int(3_000)))}`;
  return { category: 'long', target: target.slice(0, 12_000).replace(/%[0-9a-fA-F]?$/, ''), expected: 404 };
}

function pageQueryCase(text: TargetText, known: string[]): FuzzCase {
  const page = text.random() < 0.2 ? '/' : text.pick(known);
  const long = text.random() < 0.1;
  const query = long ? 'x'.repeat(text.int(6_000)) : text.query(text.random() < 0.1 ? 2_000 : 30);
  return { category: 'page+query', target: `${page}?${query}`, expected: 200 };
}

/** Raw bytes outside what a request line may carry: the HTTP parser answers 400 itself. */
function invalidBytesCase(text: TargetText): FuzzCase {
  const bad = String.fromCharCode(text.random() < 0.5 ? 0x80 + text.int(0x80) : 0x7f);
  return {
    category: 'invalid bytes',
    target: `/${text.unknownFirst(6).replace(/#/g, '')}${bad}${text.segment(6).replace(/#/g, '')}`,
    expected: 400,
  };
}

function oneCase(text: TargetText, known: string[]): FuzzCase {
  const r = text.random();
  if (r < 0.3) return { category: 'unknown', target: text.unknownPath(5, 12).replace(/#/g, '%23'), expected: 404 };
  if (r < 0.4) {
    const target = `${text.unknownPath(3, 10).replace(/#/g, '%23')}?${text.query(40)}`;
    return { category: 'unknown+query', target, expected: 404 };
  }
  if (r < 0.5) {
    const base = text.pick(TRAVERSALS);
    return { category: 'traversal', target: text.random() < 0.5 ? base : `${base}?${text.query(10)}`, expected: 404 };
  }
  if (r < 0.58) return longCase(text);
  if (r < 0.85) return pageQueryCase(text, known);
  if (r < 0.95) {
    const prefix = text.random() < 0.5 ? '/api' : '/assets';
    return { category: 'api/assets', target: `${prefix}/z${text.segment(20).replace(/#/g, '%23')}`, expected: 404 };
  }
  return invalidBytesCase(text);
}

export function fuzzCases(
  count: number,
  seed: number,
  pagePaths: string[],
  reservedFirstSegments: string[],
): FuzzCase[] {
  const text = new TargetText(prng(seed), new Set(reservedFirstSegments.map((s) => s.toLowerCase())));
  const known = pagePaths.filter((p) => p !== '/');
  return Array.from({ length: count }, () => oneCase(text, known));
}

export interface FuzzOutcome {
  status: number;
  error?: string;
  leaked?: string;
}

/** Sends one case; the body is read only to look for signs of a traversal. */
export function send(agent: Agent, port: number, target: string): Promise<FuzzOutcome> {
  return new Promise((resolve) => {
    const req = request(
      // The timeout only stops a hung request: answers take milliseconds even on a busy machine.
      { host: '127.0.0.1', port, path: target, agent, headers: { 'Accept-Encoding': 'identity' }, timeout: 60_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('latin1');
          const leaked = LEAK_MARKERS.find((m) => body.includes(m));
          resolve({ status: res.statusCode ?? 0, ...(leaked && { leaked }) });
        });
        res.on('error', (e) => resolve({ status: res.statusCode ?? 0, error: e.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ status: 0, error: e.code ?? e.message }));
    req.end();
  });
}
