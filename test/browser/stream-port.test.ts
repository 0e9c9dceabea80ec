/**
 * The port the radio player asks /api/stream for comes from configuration
 * (the first of STREAM_ALLOWED_PORTS) through the boot data, so an operator
 * who changes it does not break the player. Real Icecast, built server, Chromium.
 */
import { describe, expect, it } from 'vitest';
import { useStationAppAndBrowser } from '../support/app-and-browser.ts';
import { blockThirdParties } from '../support/browser.ts';

const env = useStationAppAndBrowser((icePort) => ({
  LOG_LEVEL: 'warn',
  STREAM_UPSTREAM_HOST: '127.0.0.1',
  STREAM_ALLOWED_PORTS: '9000',
  STREAM_PORT_MAP: `9000:${icePort}`,
}));

describe('with STREAM_ALLOWED_PORTS=9000', () => {
  it('renders 9000 into the boot data', async () => {
    const html = await (await fetch(`${env.app.url}/radio`)).text();
    const boot = /<script type="application\/json" id="__boot">(.*?)<\/script>/s.exec(html)?.[1];
    expect(boot).toBeDefined();
    expect(JSON.parse(boot!).streamPort).toBe(9000);
  });

  it('has the player ask for port 9000, and play', async () => {
    const context = await env.browser.newContext();
    try {
      const page = await context.newPage();
      await blockThirdParties(page, env.app.url);
      const nowPlaying = page.waitForResponse((res) => res.url().includes('/api/now-playing'), { timeout: 15_000 });
      await page.goto(`${env.app.url}/radio`, { waitUntil: 'load' });
      expect(new URL((await nowPlaying).url()).search).toBe('?port=9000');
      const stream = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/stream', { timeout: 15_000 });
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      const response = await stream;
      expect(new URL(response.url()).search).toBe('?port=9000');
      expect(response.status()).toBe(200);
    } finally {
      await context.close();
    }
  }, 30_000);
});
