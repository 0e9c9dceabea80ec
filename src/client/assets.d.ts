// esbuild extracts imported CSS into the manifest's stylesheet.
declare module '*.css';
