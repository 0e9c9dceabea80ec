/** hls.js's light build (no subtitles, alternate audio or DRM) has the full build's API; its package names no types for it. */
declare module 'hls.js/light' {
  export { default } from 'hls.js';
  export * from 'hls.js';
}
