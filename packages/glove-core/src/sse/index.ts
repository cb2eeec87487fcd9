/**
 * glove-core/sse — the Server-Sent Events parser glove-core's model adapters and the browser
 * clients (glove-client, glove-react) share. Imports nothing: safe in any bundle.
 */
export { SSEParser } from "./sse-parser.js";
export type { SSEEvent, SSEParserOptions } from "./sse-parser.js";
