import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchTransport } from "../../../src/models/shared/http/fetch.js";
import { nodeTransport } from "../../../src/models/shared/http/node.js";
import type { HttpTransport } from "../../../src/models/shared/http/types.js";
import { drip, startServer, type TestServer } from "./server.js";

// Whatever the network's chunk boundaries (inside a multi-byte character included), both
// transports hand the adapters the same text and the same bytes.

let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    parts: (req, res) => {
      const parts = (JSON.parse(req.body) as string[]).map((part) => Buffer.from(part, "base64"));
      res.writeHead(200, { "content-type": "text/event-stream" });
      drip(res, parts, 1);
    },
  });
});
afterAll(() => server.close());

const transports: Array<[string, HttpTransport]> = [
  ["node:http", nodeTransport],
  ["fetch", fetchTransport()],
];

/** A text and cut points in its UTF-8 bytes. */
const splitText = fc
  .tuple(fc.string({ unit: "grapheme", maxLength: 40 }), fc.array(fc.nat(), { maxLength: 6 }))
  .map(([text, cuts]) => {
    const bytes = Buffer.from(text);
    const points = [...new Set(cuts.map((c) => (bytes.length ? c % bytes.length : 0)))].sort((a, b) => a - b);
    const parts: Buffer[] = [];
    let start = 0;
    for (const point of [...points, bytes.length]) {
      if (point > start) parts.push(bytes.subarray(start, point));
      start = Math.max(start, point);
    }
    return { text, parts };
  });

describe.each(transports)("chunk boundaries: %s", (_name, transport) => {
  it("text and bytes come out whole whatever the split", async () => {
    await fc.assert(
      fc.asyncProperty(splitText, async ({ text, parts }) => {
        const body = JSON.stringify(parts.map((p) => p.toString("base64")));
        const request = () => ({ url: `${server.url}/parts`, headers: {}, body, signal: new AbortController().signal });
        let got = "";
        for await (const chunk of (await transport(request())).textChunks()) got += chunk;
        expect(got).toBe(text);
        const bytes: Uint8Array[] = [];
        for await (const chunk of (await transport(request())).byteChunks()) bytes.push(chunk);
        expect(Buffer.concat(bytes).equals(Buffer.from(text))).toBe(true);
      }),
      { numRuns: 25 },
    );
  });
});
