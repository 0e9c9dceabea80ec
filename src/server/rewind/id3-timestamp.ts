/**
 * The timestamp RFC 8216 (3.4) asks of every packed audio segment: an ID3 tag at its start with
 * a PRIV frame owned by `com.apple.streaming.transportStreamTimestamp`, whose 8 bytes hold the
 * 33-bit MPEG-2 presentation time (90 kHz) of the segment's first sample. Safari's native HLS
 * places segments by it; MP3 decoders skip ID3 tags. The time is the sample's wall clock (mod 2^33,
 * a wrap every 26.5 h, which players handle), so consecutive segments continue each other's times.
 */

const OWNER = 'com.apple.streaming.transportStreamTimestamp';
const PTS_WRAP = 2 ** 33;

/** An ID3v2.4 size: 28 bits, 7 per byte. */
function syncsafe(size: number): Buffer {
  return Buffer.from([(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f]);
}

/** The 90 kHz presentation time of a wall-clock instant, within 33 bits. */
export const ptsOf = (unixMs: number): number => Math.round(unixMs * 90) % PTS_WRAP;

/** The ID3 tag to put before a segment's first frame. */
export function timestampTag(startUnixMs: number): Buffer {
  const pts = Buffer.alloc(8);
  pts.writeBigUInt64BE(BigInt(ptsOf(startUnixMs)));
  const body = Buffer.concat([Buffer.from(`${OWNER}\0`, 'latin1'), pts]);
  const frame = Buffer.concat([Buffer.from('PRIV', 'latin1'), syncsafe(body.length), Buffer.alloc(2), body]);
  return Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 4, 0, 0]), syncsafe(frame.length), frame]);
}

/** Bytes of the ID3v2 tag at the start of `bytes` (0: none). */
export function id3Length(bytes: Uint8Array): number {
  if (bytes.length < 10 || bytes[0] !== 0x49 || bytes[1] !== 0x44 || bytes[2] !== 0x33) return 0;
  const size = ((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f);
  return 10 + size;
}
