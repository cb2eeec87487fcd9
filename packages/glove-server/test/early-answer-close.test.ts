/**
 * An answer sent while the client is still sending its body (a 413 on Content-Length) closes the
 * connection gracefully: the answer, then the end of the write side, while the rest of the body
 * is read and discarded (bounded), so the close is never a TCP reset that throws the answer away.
 * Clients here write a body far over `limits.bodyBytes` and read only once they are done writing.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenNode, type Listening } from "../src/http/node-listen.js";
import { LINGER_LIMITS } from "../src/http/lingering-close.js";
import { readJsonObject } from "../src/http/read-json.js";
import { errorResponse } from "../src/http/responses.js";
import { PROMPT_WAIT_MS } from "../../../test-support/timeouts.js";

const RUNS = 20;
const LIMIT = 1000;
// Past what the socket buffers of both ends hold (a few MiB on loopback): the client is still
// writing when the answer is out, as a real upload over the limit is.
const BODY = 12 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x20);

/** A JSON route whose body limit is LIMIT, and the paths it was asked for. */
let served: string[] = [];
let listening: Listening;
beforeAll(async () => {
  listening = await listenNode(
    async (request) => {
      served.push(new URL(request.url).pathname);
      try {
        await readJsonObject(request, LIMIT);
        return Response.json({ ok: true });
      } catch (error) {
        return errorResponse(error, () => undefined);
      }
    },
    { requestTimeoutMs: 600_000, headersTimeoutMs: 600_000 },
  );
});
afterAll(async () => {
  await listening?.close(0);
});

/** A raw connection that records what arrives; half-open, so it can go on writing after the server's FIN. */
function connect() {
  const socket = net.connect({ port: listening.port, host: "127.0.0.1", allowHalfOpen: true });
  // Not even node reads until read(): what arrives stays in the kernel, as for a client not scheduled yet.
  socket.pause();
  const seen = { text: "", closed: false, failed: false };
  socket.on("error", () => (seen.failed = true));
  socket.on("close", () => (seen.closed = true));
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  const connected = new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  /** Starts reading (until then, what arrives waits in the kernel). */
  const read = () => socket.on("data", (chunk: Buffer) => (seen.text += chunk.toString("latin1"))).resume();
  return { socket, seen, closed, connected, read };
}

/** Writes `bytes` of body with back-pressure; resolves when all is handed over, or the connection failed. */
async function writeBody(socket: net.Socket, bytes: number): Promise<number> {
  let written = 0;
  while (written < bytes && !socket.destroyed && socket.writable) {
    const piece = CHUNK.subarray(0, Math.min(CHUNK.length, bytes - written));
    written += piece.length;
    if (!socket.write(piece)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          socket.off("drain", done);
          socket.off("close", done);
          resolve();
        };
        socket.on("drain", done);
        socket.on("close", done);
      });
    }
  }
  // Everything written has left the socket's buffer (or it failed).
  await new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.write("", () => resolve())));
  return written;
}

/**
 * Waits for the close of a half-open client: a server that closes after its FIN sends nothing
 * more, so the client learns of it only from the reset its next write gets. Writes `filler`
 * every 50 ms until then.
 */
async function trickleUntilClosed(client: ReturnType<typeof connect>, filler: string): Promise<void> {
  const trickle = setInterval(() => client.socket.writable && client.socket.write(filler), 50);
  await client.closed;
  clearInterval(trickle);
}

const head = (length: number, path = "/upload") =>
  `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n`;

function expectTooLarge(text: string): void {
  expect(text).toMatch(/^HTTP\/1\.1 413 /);
  expect(text.toLowerCase()).toContain("\r\nconnection: close\r\n");
  expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)).error.code).toBe("GLOVE_TOO_LARGE");
}

describe("an answer sent before the body was read", () => {
  it(
    `reaches a raw client that writes ${BODY} bytes before it reads, in each of ${RUNS} runs`,
    async () => {
      for (let run = 0; run < RUNS; run++) {
        const client = connect();
        await client.connected;
        client.socket.write(head(BODY));
        await writeBody(client.socket, BODY);
        client.read();
        client.socket.end();
        await client.closed;
        expectTooLarge(client.seen.text);
      }
    },
    PROMPT_WAIT_MS,
  );

  it(
    "serves no request sent after the discarded body: the answer said the connection closes",
    async () => {
      served = [];
      const client = connect();
      await client.connected;
      client.read();
      client.socket.write(head(100_000, "/first"));
      // The answer and the server's FIN arrive while the body is still unsent.
      await new Promise<void>((resolve) => client.socket.once("end", () => resolve()));
      expectTooLarge(client.seen.text);
      await writeBody(client.socket, 100_000);
      client.socket.write("GET /second HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n");
      await trickleUntilClosed(client, "\r\n");
      expect(served).toEqual(["/first"]);
      expect(client.seen.text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    },
    PROMPT_WAIT_MS,
  );

  it(
    `stops discarding after ${LINGER_LIMITS.bytes} bytes: a client that sends without end is cut off`,
    async () => {
      const client = connect();
      await client.connected;
      client.read();
      client.socket.write(head(1024 * 1024 * 1024));
      const written = await writeBody(client.socket, 1024 * 1024 * 1024);
      await client.closed;
      expectTooLarge(client.seen.text);
      // The discarded bytes, plus what kernel buffers hold; reading on for LINGER_LIMITS.ms instead would take gigabytes.
      expect(written).toBeLessThan(LINGER_LIMITS.bytes + 64 * 1024 * 1024);
    },
    PROMPT_WAIT_MS,
  );

  it(
    `stops waiting after ${LINGER_LIMITS.ms} ms: a client that stops sending but never closes is closed`,
    async () => {
      const client = connect();
      await client.connected;
      client.read();
      client.socket.write(`${head(100_000)}{"text":"`);
      // A byte of body now and then: never past the byte bound, never idle; the request timeout is ten minutes here.
      await trickleUntilClosed(client, " ");
      expectTooLarge(client.seen.text);
    },
    PROMPT_WAIT_MS,
  );
});
