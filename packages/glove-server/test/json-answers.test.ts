/**
 * JSON answers on `listen` leave whole: status line, headers (with Content-Length, so no chunked
 * encoding) and body in one socket write, instead of the head flushed on its own first.
 */
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { memoryStorage } from "glove-server";
import { startServer, type TestServer } from "./support/harness.js";
import { exchange } from "./support/raw-http.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The first chunk a socket receives for one request. */
async function firstChunk(port: number, request: string): Promise<string> {
  const socket = net.connect(port, "127.0.0.1");
  try {
    const [chunk] = (await new Promise<Buffer[]>((resolve, reject) => {
      socket.once("data", (data: Buffer) => resolve([data]));
      socket.once("error", reject);
      socket.write(request);
    })) as [Buffer];
    return chunk.toString("utf8");
  } finally {
    socket.destroy();
  }
}

describe("JSON answers over listen", () => {
  it("carry Content-Length (the body's bytes, not characters) and no chunked encoding", async () => {
    server = await startServer({ store: memoryStorage() });
    const { port } = server.listening;
    // A 404 quoting a non-ASCII id: its byte length differs from its length in characters.
    const [answer] = await exchange(
      port,
      "GET /conversations/%C3%BCn%C3%AFcode HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer alice\r\nconnection: close\r\n\r\n",
    );
    expect(answer!.status).toBe(404);
    expect(answer!.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(answer!.headers["content-length"])).toBe(Buffer.byteLength(answer!.body));
    expect(Buffer.byteLength(answer!.body)).toBeGreaterThan(answer!.body.length);
    expect(JSON.parse(answer!.body).error.code).toBe("GLOVE_NOT_FOUND");
    // The hardening headers are on it as on every answer.
    expect(answer!.headers["x-content-type-options"]).toBe("nosniff");
    expect(answer!.headers["cache-control"]).toBe("no-store");
  });

  it("arrive head and body together, and keep-alive connections go on to the next request", async () => {
    server = await startServer({ store: memoryStorage() });
    const { port } = server.listening;
    const body = "{}";
    const create = `POST /conversations HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer alice\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
    const chunk = await firstChunk(port, create);
    const [head, rest] = chunk.split("\r\n\r\n") as [string, string];
    expect(head).toMatch(/^HTTP\/1\.1 201 /);
    expect(JSON.parse(rest).id).toMatch(/^[0-9a-f-]{36}$/);
    const answers = await exchange(
      port,
      `${create}GET /conversations HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer alice\r\nconnection: close\r\n\r\n`,
      2,
    );
    expect(answers.map((a) => a.status)).toEqual([201, 200]);
    expect(JSON.parse(answers[1]!.body).conversations.length).toBeGreaterThanOrEqual(1);
  });

  it("read the same through server.fetch, where the body is a web stream as before", async () => {
    server = await startServer({ store: memoryStorage() });
    const response = await server.server.fetch(
      new Request("http://127.0.0.1/conversations", { headers: { authorization: "Bearer alice" } }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(expect.objectContaining({ conversations: [] }));
  });
});
