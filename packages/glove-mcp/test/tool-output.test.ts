import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Displaymanager } from "glove-core";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { bridgeMcpTools, connectMcp, replaceBinaryPayloads } from "glove-mcp";
import { startSdkHttpServer, type SdkHttpServer } from "./support/sdk-http-server.js";

const PNG = Buffer.alloc(3_000, 7).toString("base64");
const WAV = Buffer.alloc(1_200, 3).toString("base64");

let server: SdkHttpServer;
beforeAll(async () => {
  server = await startSdkHttpServer(
    () => {
      const mcp = new McpServer({ name: "media", version: "1.0.0" });
      mcp.registerTool("snapshot", { description: "A page snapshot" }, () => ({
        content: [{ type: "text", text: "snapshot taken" }],
        structuredContent: {
          title: "Home",
          screenshot: { type: "image", mimeType: "image/png", data: PNG },
          voice: { type: "audio", mimeType: "audio/wav", data: WAV },
          attachment: { uri: "file:///a.bin", mimeType: "application/octet-stream", blob: PNG },
          thumbnail: `data:image/jpeg;base64,${PNG}`,
          raw: PNG,
          tags: ["a", "b"],
        },
      }));
      mcp.registerTool("plain", { description: "Plain structured content" }, () => ({
        content: [{ type: "text", text: "{}" }],
        structuredContent: { count: 2, names: ["x", "y"] },
      }));
      mcp.registerTool("locked", { description: "Behind a proxy that forbids it" }, () => ({
        content: [{ type: "text", text: "never" }],
      }));
      return mcp;
    },
    {
      // A proxy in front of the server forbids one tool with an HTML page (no OAuth challenge).
      guard: (_req, body) =>
        (body as { params?: { name?: string } } | undefined)?.params?.name === "locked"
          ? {
              status: 403,
              headers: { "content-type": "text/html" },
              body: `<html><body>${"Forbidden by policy. ".repeat(100)}</body></html>`,
            }
          : undefined,
    },
  );
});
afterAll(async () => {
  await server?.stop();
});

describe("what the model reads of structured content", () => {
  it("replaces image, audio, blob and base64 payloads with short markers and keeps the bytes in renderData", async () => {
    const connection = await connectMcp({ id: "media", name: "Media", description: "t", url: server.url });
    try {
      const folds = bridgeMcpTools(connection, true);
      const snapshot = await folds
        .find((f) => f.name === "media__snapshot")!
        .do({}, new Displaymanager(), undefined as never);
      expect(snapshot).toMatchObject({ status: "success" });
      const data = (snapshot as { data: Record<string, unknown> }).data;
      const seen = JSON.stringify(data);
      expect(seen).not.toContain(PNG);
      expect(seen).not.toContain(WAV);
      expect(seen.length).toBeLessThan(800);
      expect(data).toMatchObject({
        title: "Home",
        screenshot: { type: "image", mimeType: "image/png", data: "[image image/png, 3000 bytes]" },
        voice: { type: "audio", data: "[audio audio/wav, 1200 bytes]" },
        attachment: { uri: "file:///a.bin", blob: "[blob application/octet-stream, 3000 bytes]" },
        thumbnail: "[image/jpeg data, 3000 bytes]",
        raw: "[base64 data, 3000 bytes]",
        tags: ["a", "b"],
      });
      const renderData = (snapshot as { renderData: Array<{ type: string; structuredContent?: unknown }> }).renderData;
      expect(renderData.find((item) => item.type === "structured")!.structuredContent).toMatchObject({
        screenshot: { data: PNG },
        raw: PNG,
      });

      const plain = await folds
        .find((f) => f.name === "media__plain")!
        .do({}, new Displaymanager(), undefined as never);
      expect(plain).toMatchObject({ status: "success", data: { count: 2, names: ["x", "y"] } });
      expect((plain as { renderData: unknown[] }).renderData).toEqual([{ type: "text", text: "{}" }]);
    } finally {
      await connection.close();
    }
  });
});

describe("HTTP errors during a call", () => {
  it("reach the model as the status, not the server's page", async () => {
    const connection = await connectMcp({ id: "media", name: "Media", description: "t", url: server.url });
    try {
      const locked = bridgeMcpTools(connection, true).find((f) => f.name === "media__locked")!;
      expect(await locked.do({}, new Displaymanager(), undefined as never)).toEqual({
        status: "error",
        message: "The MCP server answered HTTP 403 to locked",
        data: null,
      });
    } finally {
      await connection.close();
    }
  });
});

describe("replaceBinaryPayloads", () => {
  const base64Blob = fc
    .uint8Array({ minLength: 384, maxLength: 2_000 })
    .map((bytes) => Buffer.from(bytes).toString("base64"));
  // Ordinary JSON: strings with a space can never be taken for base64.
  const ordinary = fc
    .jsonValue({ maxDepth: 4 })
    .map((v) => JSON.parse(JSON.stringify(v, (_k, x: unknown) => (typeof x === "string" ? `${x} ` : x))) as unknown);

  it("returns values without binary payloads unchanged (same reference)", () => {
    fc.assert(
      fc.property(ordinary, (value) => {
        expect(replaceBinaryPayloads(value)).toBe(value);
      }),
    );
  });

  it("never lets a base64 payload through, wherever it sits", () => {
    fc.assert(
      fc.property(ordinary, base64Blob, fc.constantFrom("bare", "image", "blob", "dataUri"), (around, blob, shape) => {
        const payload =
          shape === "bare"
            ? blob
            : shape === "image"
              ? { type: "image", mimeType: "image/png", data: blob.slice(0, 40) }
              : shape === "blob"
                ? { uri: "x:y", blob: blob.slice(0, 40) }
                : `data:image/png;base64,${blob.slice(0, 40)}`;
        const value = { around, nested: [{ payload }] };
        const out = JSON.stringify(replaceBinaryPayloads(value));
        expect(out).not.toContain(shape === "bare" ? blob : blob.slice(0, 40));
        expect(out).toContain(JSON.stringify(around));
      }),
    );
  });

  it("keeps a __proto__ key an own property", () => {
    const value = JSON.parse(`{"__proto__": {"type": "image", "mimeType": "image/png", "data": "AAAA"}}`) as Record<
      string,
      unknown
    >;
    const out = replaceBinaryPayloads(value);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(["__proto__"]);
  });
});
