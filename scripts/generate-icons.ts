/**
 * Draws the site's PNG icons and its Open Graph card with Debian's Chromium and
 * writes them to public/ (they are committed; run again only when the design
 * changes): `node scripts/generate-icons.ts`.
 *
 * - icon-192.png, icon-512.png: the favicon.svg mark (web manifest, JSON-LD logo)
 * - icon-maskable-512.png: full-bleed, the letter inside the maskable safe zone
 * - apple-touch-icon.png (180): full-bleed and opaque; iOS rounds the corners itself
 * - favicon.ico: a 32 px PNG in an ICO container, for clients that ask for /favicon.ico
 * - og-image.png (1200×630): the link-preview card
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from '../test/support/browser.ts';
import { defaultSite } from '../src/shared/site.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const PUBLIC = join(ROOT, 'public');
const BRAND = '#9b1c1c';
const SERIF = "Georgia, 'DejaVu Serif', 'Liberation Serif', serif";

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The favicon.svg mark, drawn at any size. */
const markHtml = (size: number) =>
  readFileSync(join(PUBLIC, 'favicon.svg'), 'utf8')
    .replace('<svg ', `<svg width="${size}" height="${size}" `)
    .replace(/font-family="[^"]*"/, `font-family="${SERIF.replace(/"/g, "'")}"`);

/** A square of brand colour with the letter scaled to `letter` of the side (maskable / Apple). */
const fullBleedHtml = (size: number, letter: number) =>
  `<div style="width:${size}px;height:${size}px;background:${BRAND};display:flex;align-items:center;justify-content:center">` +
  `<span style="font:700 ${Math.round(size * letter)}px/1 ${SERIF};color:#fff">L</span></div>`;

const ogHtml = () => `
<div style="width:1200px;height:630px;box-sizing:border-box;background:#fff;border-top:24px solid ${BRAND};
  padding:72px 88px;display:flex;flex-direction:column;justify-content:space-between;font-family:${SERIF};color:#1a1a1a">
  <div style="display:flex;align-items:center;gap:28px">
    ${markHtml(112)}
    <div style="font:700 30px/1.2 ${SERIF};color:${BRAND};letter-spacing:0.08em;text-transform:uppercase">Chicago</div>
  </div>
  <div>
    <div style="font:700 76px/1.08 ${SERIF}">${escapeHtml(defaultSite.masthead)}</div>
    <div style="margin-top:28px;font:400 34px/1.3 ${SERIF};color:#444">${escapeHtml(defaultSite.tagline)}</div>
  </div>
  <div style="font:400 28px/1 ${SERIF};color:#555;border-top:2px solid #d6d6d2;padding-top:24px">
    News · Politics · Business · Sports · Culture · Live Radio
  </div>
</div>`;

/** An ICO file holding one PNG image (supported by every browser since Vista-era IE). */
function icoFromPng(png: Buffer, size: number): Buffer {
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(size >= 256 ? 0 : size, 6); // width
  header.writeUInt8(size >= 256 ? 0 : size, 7); // height
  header.writeUInt8(0, 8); // palette
  header.writeUInt8(0, 9); // reserved
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14); // image bytes
  header.writeUInt32LE(22, 18); // image offset
  return Buffer.concat([header, png]);
}

const browser = await launchBrowser();
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  const shot = async (html: string, width: number, height: number, transparent: boolean): Promise<Buffer> => {
    await page.setViewportSize({ width, height });
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${html}</body></html>`);
    await page.evaluate(() => document.fonts.ready);
    return page.screenshot({ omitBackground: transparent, clip: { x: 0, y: 0, width, height } });
  };
  const outputs: [string, Buffer][] = [
    ['icon-192.png', await shot(markHtml(192), 192, 192, true)],
    ['icon-512.png', await shot(markHtml(512), 512, 512, true)],
    // Maskable: the safe zone is the centre circle of 80 % diameter; the letter stays well inside.
    ['icon-maskable-512.png', await shot(fullBleedHtml(512, 0.5), 512, 512, false)],
    ['apple-touch-icon.png', await shot(fullBleedHtml(180, 0.62), 180, 180, false)],
    ['favicon.ico', icoFromPng(await shot(markHtml(32), 32, 32, true), 32)],
    ['og-image.png', await shot(ogHtml(), 1200, 630, false)],
  ];
  for (const [name, bytes] of outputs) {
    writeFileSync(join(PUBLIC, name), bytes);
    console.log(`public/${name}  ${bytes.length} bytes`);
  }
} finally {
  await browser.close();
}
