import { use } from 'react';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from './support/test-app.ts';
import { BROWSER_UA, HANG_LIMIT_MS } from './support/http.ts';

function Broken(): never {
  throw new Error('component exploded');
}

const never = new Promise<never>(() => {});
function Hangs() {
  use(never);
  return null;
}

describe('a page that cannot render', () => {
  it.each([BROWSER_UA, 'Googlebot/2.1'])('answers a plain 500 page when the shell throws (%s)', async (ua) => {
    const app = testApp({}, { appTree: () => <Broken /> });
    const res = await request(app).get('/').set('User-Agent', ua);
    expect(res.status).toBe(500);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain('Something went wrong');
  });

  it('aborts a render that takes too long and answers 500 instead of hanging', async () => {
    const app = testApp({ RENDER_TIMEOUT_MS: '200' }, { appTree: () => <Hangs /> });
    // Without the render timeout the request would hang (and the client give up with an error).
    const res = await request(app).get('/about').set('User-Agent', BROWSER_UA).timeout(HANG_LIMIT_MS);
    expect(res.status).toBe(500);
  });

  it('does not cache a failed render', async () => {
    let fail = true;
    function Flaky() {
      if (fail) throw new Error('once');
      return <p>recovered</p>;
    }
    const app = testApp({}, { appTree: () => <Flaky /> });
    expect((await request(app).get('/').set('User-Agent', BROWSER_UA)).status).toBe(500);
    fail = false;
    const res = await request(app).get('/').set('User-Agent', BROWSER_UA);
    expect(res.status).toBe(200);
    expect(res.text).toContain('recovered');
  });
});
