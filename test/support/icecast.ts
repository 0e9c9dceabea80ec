/**
 * A real Icecast 2 server fed by ezstream, for the stream tests and the
 * benchmark. Everything listens on 127.0.0.1 on free ports, lives in a temp
 * folder and is stopped by PID. Facts this harness works around:
 * - Icecast refuses to run as root; with <changeowner> it switches user before
 *   it opens its log folder, so that folder must belong to the target user
 *   (and the temp folder above it must be traversable).
 * - ezstream wants its config file to be mode 0600.
 * - Icecast stops within a second or two of SIGTERM; we wait, then SIGKILL.
 * Debian packages: icecast2, ezstream, lame, sox.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './app-process.ts';
import { requireCommands } from './system-deps.ts';
import { untilValue, WAIT_LIMIT_MS } from './wait.ts';

/** Throws naming the missing Debian packages, so a bare machine fails with a clear message. */
export function requireStreamTools(): void {
  requireCommands('the stream tests', { icecast2: 'icecast2', ezstream: 'ezstream', lame: 'lame', sox: 'sox' });
}

interface Managed {
  child: ChildProcess;
  logs: string[];
  exited: Promise<void>;
}

function launch(cmd: string, args: string[], cwd: string): Managed {
  const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: string[] = [];
  const keep = (chunk: Buffer) => {
    logs.push(...chunk.toString().split('\n').filter(Boolean));
    if (logs.length > 200) logs.splice(0, logs.length - 200);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return { child, logs, exited };
}

/** SIGTERM, then SIGKILL if it lingers; resolves when the process is gone. */
async function terminate(proc: Managed, graceMs = 5_000): Promise<void> {
  const { child } = proc;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await proc.exited;
  clearTimeout(timer);
}

/** One status request; a busy machine answers in milliseconds. */
const PROBE_LIMIT_MS = 10_000;

/** Polls `probe` (a failed probe counts as "not yet": the server may not be listening yet) until it gives a value. */
function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, logs?: string[]): Promise<T> {
  return untilValue(what, () => probe().catch(() => undefined), timeoutMs, logs && (() => logs.join('\n')));
}

/**
 * `file` made once (cached in the temp folder): sox synthesises `seconds` of 44.1 kHz stereo from its
 * `synth` effects, lame encodes CBR MP3 at `kbps` with `tags` (lame's ID3 options; `-t` for none).
 */
function synthMp3(file: string, seconds: number, kbps: number, synth: string[], tags: string[]): string {
  if (existsSync(file)) return file;
  requireStreamTools();
  const wav = `${file}.${process.pid}.wav`;
  const part = `${file}.${process.pid}.part`;
  execFileSync('sox', ['-n', '-r', '44100', '-c', '2', '-b', '16', wav, 'synth', String(seconds), ...synth]);
  execFileSync('lame', ['--quiet', '--cbr', '-b', String(kbps), '--resample', '44.1', ...tags, wav, part]);
  execFileSync('mv', [part, file]);
  rmSync(wav, { force: true });
  return file;
}

/** A looping test tone as CBR MP3 (sox synthesises, lame encodes), cached per bitrate in the temp folder. */
export function makeTestMp3(kbps = 128, seconds = 10): string {
  const file = join(tmpdir(), `icecast-test-tone-${kbps}k-${seconds}s.mp3`);
  return synthMp3(file, seconds, kbps, ['sine', '220-440', 'sine', '330', 'vol', '0.4'], ['-t']);
}

/** One song of the tone track: a steady sine at `hz` for `seconds`, its title in the MP3's ID3 tag. */
export interface ToneSong {
  title: string;
  hz: number;
}

/**
 * Songs that differ audibly (a steady tone each, e.g. 440 Hz then 880 Hz), each a CBR MP3 whose
 * ID3 title ezstream sends to Icecast as it starts the file, as a station's playout does; cached
 * in the temp folder. Returns the files in order (a playlist for `startEzstream`'s `files`).
 */
export function makeToneSongs(songs: ToneSong[], seconds = 8, kbps = 128): string[] {
  return songs.map(({ title, hz }) => {
    const file = join(tmpdir(), `icecast-song-${hz}hz-${seconds}s-${kbps}k-${title.replace(/\W/g, '_')}.mp3`);
    return synthMp3(file, seconds, kbps, ['sine', String(hz), 'vol', '0.5'], ['--tt', title]);
  });
}

export interface MountOptions {
  name: string;
  maxListeners?: number;
  /** Extra response headers Icecast adds for this mount. */
  headers?: Record<string, string>;
}

export interface IcecastOptions {
  /** Listen on this port (a station restarted where it was); a free one by default. */
  port?: number;
  /** <limits><clients>: listeners plus sources plus status requests. */
  clients?: number;
  burstSize?: number;
  /** Headers Icecast adds to every response. */
  headers?: Record<string, string>;
  mounts?: MountOptions[];
  /** XML added at the end of <icecast> (a <relay> block from deploy/icecast-relay.xml). */
  extraXml?: string;
  /**
   * Serve a copy of Debian's web folder from `webroot` (a test then breaks the status page in it).
   * The copy holds the files themselves: Debian's are links into /etc/icecast2/web, which a test
   * must never write through.
   */
  ownWebroot?: boolean;
}

export interface IcecastSource {
  mount: string;
  listeners: number;
  title: string | null;
}

export interface Icecast {
  port: number;
  url: string;
  pid: number;
  dir: string;
  /** The folder Icecast serves /status-json.xsl from (a copy of Debian's with `ownWebroot`). */
  webroot: string;
  sourcePassword: string;
  logs: string[];
  /** Sources by mount, from /status-json.xsl. */
  sources(): Promise<IcecastSource[]>;
  listeners(mount?: string): Promise<number>;
  waitForMount(mount?: string, timeoutMs?: number): Promise<void>;
  waitForMountGone(mount?: string, timeoutMs?: number): Promise<void>;
  /** Waits until the mount's listener count equals `count`; returns the last count seen. */
  waitForListeners(count: number, mount?: string, timeoutMs?: number): Promise<number>;
  /** Changes the mount's title as a station operator does (Icecast's admin metadata update). */
  setTitle(title: string, mount?: string): Promise<void>;
  stop(): Promise<void>;
}

const xmlEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const headerXml = (headers: Record<string, string> = {}) =>
  Object.entries(headers)
    .map(([name, value]) => `<header name="${xmlEscape(name)}" value="${xmlEscape(value)}" />`)
    .join('');

/** Icecast drops root privileges to this user (the Debian package's), or to nobody. */
function dropTo(): { user: string; group: string; uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  for (const user of ['icecast2', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', user]).toString().trim());
      const gid = Number(execFileSync('id', ['-g', user]).toString().trim());
      const group = execFileSync('id', ['-gn', user]).toString().trim();
      return { user, group, uid, gid };
    } catch {
      /* try the next one */
    }
  }
  throw new Error('running as root but neither user icecast2 nor nobody exists for Icecast to switch to');
}

const DEBIAN_WEBROOT = '/usr/share/icecast2/web';

/** Starts Icecast; one retry on a new port covers the rare race where another process took the free port first. */
export async function startIcecast(options: IcecastOptions = {}): Promise<Icecast> {
  requireStreamTools();
  try {
    return await startIcecastOnce(options);
  } catch {
    return startIcecastOnce(options);
  }
}

async function startIcecastOnce(options: IcecastOptions): Promise<Icecast> {
  const port = options.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'icecast-test-'));
  chmodSync(dir, 0o755);
  const logdir = join(dir, 'log');
  mkdirSync(logdir);
  const owner = dropTo();
  if (owner) chownSync(logdir, owner.uid, owner.gid);
  const webroot = options.ownWebroot ? join(dir, 'web') : DEBIAN_WEBROOT;
  if (options.ownWebroot) cpSync(DEBIAN_WEBROOT, webroot, { recursive: true, dereference: true });
  const sourcePassword = `src-${process.pid}-${port}`;
  const adminPassword = `adm-${process.pid}-${port}`;

  const mounts = (options.mounts ?? [])
    .map(
      (m) =>
        `<mount type="normal"><mount-name>${xmlEscape(m.name)}</mount-name>` +
        (m.maxListeners !== undefined ? `<max-listeners>${m.maxListeners}</max-listeners>` : '') +
        (m.headers ? `<http-headers>${headerXml(m.headers)}</http-headers>` : '') +
        `</mount>`,
    )
    .join('\n');
  const config = `<icecast>
  <location>test</location><admin>test@localhost</admin>
  <limits>
    <clients>${options.clients ?? 200}</clients><sources>8</sources>
    <queue-size>524288</queue-size><client-timeout>30</client-timeout><header-timeout>15</header-timeout>
    <source-timeout>10</source-timeout><burst-on-connect>1</burst-on-connect><burst-size>${options.burstSize ?? 65535}</burst-size>
  </limits>
  <authentication>
    <source-password>${sourcePassword}</source-password>
    <admin-user>admin</admin-user><admin-password>${adminPassword}</admin-password>
  </authentication>
  <hostname>127.0.0.1</hostname>
  <listen-socket><port>${port}</port><bind-address>127.0.0.1</bind-address></listen-socket>
  <http-headers>${headerXml(options.headers)}</http-headers>
  ${mounts}
  <fileserve>1</fileserve>
  <paths>
    <basedir>/usr/share/icecast2</basedir><logdir>${logdir}</logdir>
    <webroot>${webroot}</webroot><adminroot>/usr/share/icecast2/admin</adminroot>
  </paths>
  <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
  <security><chroot>0</chroot>${owner ? `<changeowner><user>${owner.user}</user><group>${owner.group}</group></changeowner>` : ''}</security>
  ${options.extraXml ?? ''}
</icecast>
`;
  const configFile = join(dir, 'icecast.xml');
  writeFileSync(configFile, config);
  const proc = launch('icecast2', ['-c', configFile], dir);
  const url = `http://127.0.0.1:${port}`;

  const status = async (): Promise<IcecastSource[]> => {
    const res = await fetch(`${url}/status-json.xsl`, { signal: AbortSignal.timeout(PROBE_LIMIT_MS) });
    const body = (await res.json()) as { icestats?: { source?: unknown } };
    const raw = body.icestats?.source;
    const list = (Array.isArray(raw) ? raw : raw ? [raw] : []) as {
      listenurl?: string;
      listeners?: number;
      title?: string;
    }[];
    return list.map((s) => ({
      mount: s.listenurl ? new URL(s.listenurl).pathname : '',
      listeners: s.listeners ?? 0,
      title: s.title ?? null,
    }));
  };

  await waitFor(
    'Icecast to answer',
    async () => {
      if (proc.child.exitCode !== null) throw new Error('exited');
      const res = await fetch(`${url}/status-json.xsl`, { signal: AbortSignal.timeout(PROBE_LIMIT_MS) });
      return res.ok ? true : undefined;
    },
    WAIT_LIMIT_MS,
    proc.logs,
  ).catch(async (error: Error) => {
    await terminate(proc);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });

  const ice: Icecast = {
    port,
    url,
    pid: proc.child.pid!,
    dir,
    webroot,
    sourcePassword,
    logs: proc.logs,
    sources: status,
    async listeners(mount = '/stream') {
      const source = (await status()).find((s) => s.mount === mount);
      if (!source) throw new Error(`mount ${mount} is not on the air`);
      return source.listeners;
    },
    async waitForMount(mount = '/stream', timeoutMs = WAIT_LIMIT_MS) {
      await waitFor(
        `mount ${mount}`,
        async () => ((await status()).some((s) => s.mount === mount) ? true : undefined),
        timeoutMs,
      );
    },
    async waitForMountGone(mount = '/stream', timeoutMs = WAIT_LIMIT_MS) {
      await waitFor(
        `mount ${mount} to go`,
        async () => ((await status()).some((s) => s.mount === mount) ? undefined : true),
        timeoutMs,
      );
    },
    async waitForListeners(count, mount = '/stream', timeoutMs = WAIT_LIMIT_MS) {
      let last = -1;
      try {
        await waitFor(
          `${count} listeners on ${mount}`,
          async () => {
            last = await ice.listeners(mount);
            return last === count ? true : undefined;
          },
          timeoutMs,
        );
      } catch {
        /* the caller asserts on the count */
      }
      return last;
    },
    async setTitle(title, mount = '/stream') {
      const query = new URLSearchParams({ mount, mode: 'updinfo', song: title });
      const res = await fetch(`${url}/admin/metadata?${query}`, {
        headers: { Authorization: `Basic ${Buffer.from(`admin:${adminPassword}`).toString('base64')}` },
        signal: AbortSignal.timeout(PROBE_LIMIT_MS),
      });
      if (!res.ok) throw new Error(`Icecast refused the metadata update: ${res.status} ${await res.text()}`);
    },
    async stop() {
      await terminate(proc);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return ice;
}

export interface EzstreamOptions {
  mount?: string;
  file?: string;
  /** A playlist played in order, looped (makeToneSongs); each file's ID3 title is sent as it starts. */
  files?: string[];
  name?: string;
}

export interface Ezstream {
  pid: number;
  logs: string[];
  stop(): Promise<void>;
}

/** Feeds `file` (looped) to the Icecast mount and waits until the mount is on the air. */
export async function startEzstream(ice: Icecast, options: EzstreamOptions = {}): Promise<Ezstream> {
  const mount = options.mount ?? '/stream';
  const configFile = join(ice.dir, `ezstream-${mount.replace(/\W/g, '_')}.xml`);
  let intake = `<type>file</type><filename>${xmlEscape(options.file ?? makeTestMp3())}</filename>`;
  if (options.files) {
    const playlist = configFile.replace(/\.xml$/, '.m3u');
    writeFileSync(playlist, `${options.files.join('\n')}\n`);
    intake = `<type>playlist</type><filename>${xmlEscape(playlist)}</filename>`;
  }
  writeFileSync(
    configFile,
    `<ezstream>
  <servers><server><hostname>127.0.0.1</hostname><port>${ice.port}</port><password>${ice.sourcePassword}</password><tls>None</tls><reconnect_attempts>1</reconnect_attempts></server></servers>
  <streams><stream><mountpoint>${xmlEscape(mount)}</mountpoint><format>MP3</format><stream_name>${xmlEscape(options.name ?? 'Test Station')}</stream_name></stream></streams>
  <intakes><intake>${intake}</intake></intakes>
</ezstream>
`,
    { mode: 0o600 },
  );
  chmodSync(configFile, 0o600);
  const proc = launch('ezstream', ['-c', configFile], ice.dir);
  try {
    await waitFor(
      `ezstream on ${mount}`,
      async () => {
        if (proc.child.exitCode !== null) throw new Error(`ezstream exited:\n${proc.logs.join('\n')}`);
        return (await ice.sources()).some((s) => s.mount === mount) ? true : undefined;
      },
      WAIT_LIMIT_MS,
      proc.logs,
    );
  } catch (error) {
    await terminate(proc);
    throw error;
  }
  return { pid: proc.child.pid!, logs: proc.logs, stop: () => terminate(proc) };
}

/**
 * Changes the mount's title and waits until `seen()` says it arrived; returns the ms from the last
 * change to its arrival. ezstream sets the title again each time its file loops (every few
 * seconds), which can overwrite a change before anything reads it: then the change is made again
 * (after 3 s without it arriving), and the time counts from that one. Gives up after 30 s.
 */
export async function changeTitleUntilSeen(
  ice: Icecast,
  title: string,
  seen: () => boolean | Promise<boolean>,
): Promise<number> {
  const giveUpAt = performance.now() + 30_000;
  while (performance.now() < giveUpAt) {
    const changedAt = performance.now();
    await ice.setTitle(title);
    while (performance.now() - changedAt < 3_000) {
      if (await seen()) return performance.now() - changedAt;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  throw new Error(`the title "${title}" never arrived`);
}

/**
 * Changes the mount's title once, as a station operator does, and resolves with how long after
 * the change `seen` first held. The title is never sent again: a lost change fails the test
 * (after the harness's hang limit) instead of being covered by a second one.
 */
export async function changeTitleOnce(
  ice: Icecast,
  title: string,
  seen: () => boolean | Promise<boolean>,
  limitMs?: number,
): Promise<number> {
  const changedAt = performance.now();
  await ice.setTitle(title);
  await untilValue(
    `the title "${title}", changed once, to arrive`,
    async () => ((await seen()) ? true : undefined),
    limitMs,
  );
  return performance.now() - changedAt;
}
