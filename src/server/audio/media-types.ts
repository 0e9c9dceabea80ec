/**
 * What a station's Content-Type says its audio is, read the same way by the relay
 * (stream/mount-feed.ts) and the rewind recorder (rewind/recorder.ts): anyone with the station's
 * source password chooses it, so only audio passes, and only MPEG audio is cut into frames.
 */

/** The media type of a Content-Type value, lower case, without parameters. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** audio/* or Ogg (Icecast's type for Ogg Vorbis/Opus mounts); nothing a browser would render. */
export function isAudioType(contentType: string | undefined): boolean {
  const type = mediaType(contentType);
  return /^audio\/[a-z0-9][a-z0-9.+-]*$/.test(type) || type === 'application/ogg';
}

const MPEG_TYPES = new Set(['audio/mpeg', 'audio/mp3', 'audio/mpeg3']);

export const isMpegType = (contentType: string | undefined): boolean => MPEG_TYPES.has(mediaType(contentType));
