/**
 * The W3C Nu HTML Checker (vnu.jar from npm `vnu-jar`, run on the system's Java 17+) on the
 * server's HTML of every route, the not-found page included: 0 errors. The pages are checked in
 * one Java run (the JVM takes a second or two to start).
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pages } from '../src/shared/pages.ts';
import { BROWSER_UA } from './support/http.ts';
import { requireCommand } from './support/system-deps.ts';
import { testApp } from './support/test-app.ts';

const VNU_JAR = createRequire(import.meta.url).resolve('vnu-jar/build/dist/vnu.jar');
const routes = pages.map((p) => (p.path === '*' ? '/no-such-page' : p.path));

interface VnuMessage {
  type: string;
  subType?: string;
  url: string;
  lastLine?: number;
  firstColumn?: number;
  message: string;
  extract?: string;
}

/** Runs the checker on the files; its JSON report comes on stderr, with exit code 1 when it found errors. */
function vnu(files: string[]): Promise<VnuMessage[]> {
  const java = requireCommand('the W3C HTML checker', 'java', 'default-jre-headless');
  return new Promise((resolve, reject) => {
    execFile(
      java,
      ['-jar', VNU_JAR, '--errors-only', '--format', 'json', ...files],
      { maxBuffer: 16 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        try {
          resolve((JSON.parse(stderr) as { messages: VnuMessage[] }).messages);
        } catch {
          reject(new Error(`vnu gave no JSON report (is Java 17+ installed?): ${error?.message ?? ''}\n${stderr}`));
        }
      },
    );
  });
}

const dir = mkdtempSync(join(tmpdir(), 'vnu-'));
const fileOf = (route: string) => join(dir, `${route.replace(/[^a-z]/g, '_')}.html`);
let messages: VnuMessage[] = [];

beforeAll(async () => {
  const app = testApp();
  for (const route of routes) {
    const res = await request(app).get(route).set('User-Agent', BROWSER_UA);
    expect(res.status).toBe(route === '/no-such-page' ? 404 : 200);
    writeFileSync(fileOf(route), res.text);
  }
  messages = await vnu(routes.map(fileOf));
  // Java's start and nine pages took over 60 s with both cores busy: the limit only stops a hung checker.
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('W3C Nu HTML Checker', () => {
  it.each(routes)('%s: 0 errors', (route) => {
    const errors = messages
      .filter((m) => m.url.endsWith(fileOf(route)) && (m.type === 'error' || m.subType === 'fatal'))
      .map((m) => `${m.lastLine}:${m.firstColumn} ${m.message}\n    ${m.extract ?? ''}`);
    expect(errors).toEqual([]);
  });

  it('ran on every page (a report naming none would pass vacuously)', async () => {
    // A page with a known error must come back with it, so a checker that reports nothing fails here.
    const broken = join(dir, 'broken.html');
    writeFileSync(broken, '<!doctype html><html lang="en"><title>x</title><p><time>not a date</time></html>');
    const found = await vnu([broken]);
    expect(found.some((m) => m.type === 'error' && m.message.includes('time'))).toBe(true);
  });
});
