/**
 * The one function the relay uses from Node's own HTTP module: how Node hands a
 * connection's parser back to its pool when the connection stops speaking HTTP
 * (an upgrade). Public as `node:_http_common`, untyped by @types/node.
 */
declare module 'node:_http_common' {
  export function freeParser(parser: object | null, req: unknown, socket: unknown): void;
}
