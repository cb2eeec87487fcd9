/// <reference types="node" />
// Reached only through "#http-transport" under the "node" condition (decision 0035); browser-safety is
// checked on the resolved graph (test/models/browser-safe-models.test.ts), so the blanket rule is lifted here.
/* eslint-disable no-restricted-imports */
import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { BodyReadError } from "./types.js";

/**
 * The readable body of a response: decompressed when the server compressed it although we
 * asked for `identity` (fetch decompresses too, so the adapters never see compressed bytes).
 */
export function decodedBody(response: IncomingMessage): Readable {
  const encoding = (response.headers["content-encoding"] ?? "").trim().toLowerCase();
  const unzip =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : undefined;
  if (!unzip) return response;
  response.on("error", (error) => unzip.destroy(error));
  response.pipe(unzip);
  return unzip;
}

/**
 * Reads a Node stream as batches of chunks: every chunk that arrived since the last read comes
 * as one batch, so a burst of small network chunks costs one await, not one each. Errors, and a
 * stream closed before its end (a cut connection, an abort), reject as BodyReadError.
 */
export class ChunkQueue {
  private chunks: Buffer[] = [];
  private ended = false;
  private failure: { error: unknown } | undefined;
  private wake: (() => void) | undefined;

  /** `onSettle` is told once the body ended or failed. */
  constructor(
    private readonly stream: Readable,
    private readonly onSettle: () => void = () => {},
  ) {
    stream.on("data", (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.notify();
    });
    stream.on("end", () => {
      this.ended = true;
      this.onSettle();
      this.notify();
    });
    stream.on("error", (error) => this.fail(error));
    stream.on("close", () => {
      if (!this.ended) this.fail(new Error("aborted: the connection closed before the body ended"));
    });
  }

  /** Stops reading: the body is dropped and its connection closed. */
  destroy(error?: unknown): void {
    this.stream.destroy(error instanceof Error ? error : undefined);
    if (error !== undefined) this.fail(error);
  }

  fail(error: unknown): void {
    this.failure ??= { error };
    this.onSettle();
    this.notify();
  }

  /** The chunks that arrived since the last call, or undefined at the end of the body. */
  async next(): Promise<Buffer[] | undefined> {
    for (;;) {
      if (this.chunks.length) {
        const out = this.chunks;
        this.chunks = [];
        return out;
      }
      if (this.failure) throw new BodyReadError(this.failure.error);
      if (this.ended) return undefined;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

/** The body as text: each batch decoded as one piece, multi-byte characters kept whole across chunks. */
export function textChunks(queue: ChunkQueue): AsyncGenerator<string> {
  const decoder = new StringDecoder("utf8");
  return read(
    queue,
    (batch) =>
      batch.length === 1 ? decoder.write(batch[0]!) : batch.reduce((text, bytes) => text + decoder.write(bytes), ""),
    () => decoder.end(),
  );
}

/** The body as bytes, a batch at a time. */
export function byteChunks(queue: ChunkQueue): AsyncGenerator<Uint8Array> {
  return read(queue, (batch) => (batch.length === 1 ? batch[0]! : Buffer.concat(batch)));
}

/** Reads the queue to its end, each batch mapped (empty results skipped); stopping early destroys the stream (the connection is not reused). */
async function* read<T extends string | Uint8Array>(
  queue: ChunkQueue,
  map: (batch: Buffer[]) => T,
  flush?: () => T,
): AsyncGenerator<T> {
  let finished = false;
  try {
    for (let batch; (batch = await queue.next());) {
      const value = map(batch);
      if (value.length) yield value;
    }
    finished = true;
    const rest = flush?.();
    if (rest?.length) yield rest;
  } finally {
    if (!finished) queue.destroy();
  }
}
