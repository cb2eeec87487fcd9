import { BodyReadError } from "./transport.js";

/**
 * Reads a response body chunk by chunk. A failed read becomes a BodyReadError;
 * the reader is cancelled when the consumer stops early or throws, and released
 * in every case.
 */
export async function* readBodyChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw new BodyReadError(error);
      }
      if (chunk.done) {
        finished = true;
        return;
      }
      yield chunk.value;
    }
  } finally {
    if (!finished) reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
