import fc from "fast-check";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  arbitraryChunking,
  betweenSseNewlines,
  byteByByte,
  FixtureError,
  insideUtf8,
  loadFixture,
  randomSplits,
  replayFetch,
  replayServers,
  splitAt,
  standardChunkings,
  type RecordedResponse,
} from "./index.js";

const enc = (s: string) => new TextEncoder().encode(s);
const join8 = (pieces: Uint8Array[]) => Buffer.concat(pieces.map((p) => Buffer.from(p)));
const sseBody = enc('data: {"a":"é€😀"}\n\ndata: {"b":1}\r\n\r\ndata: [DONE]\n\n');
const recorded: RecordedResponse = { status: 200, headers: { "content-type": "text/event-stream" }, body: sseBody };

const startServer = replayServers();

describe("chunkings", () => {
  it("every standard chunking and any arbitrary one reassembles to the body", () => {
    for (const c of standardChunkings) expect(join8(c.cut(sseBody)).equals(Buffer.from(sseBody)), c.name).toBe(true);
    fc.assert(
      fc.property(arbitraryChunking(sseBody.length), (c) => join8(c.cut(sseBody)).equals(Buffer.from(sseBody))),
    );
  });

  it("cuts where it says", () => {
    expect(byteByByte(sseBody)).toHaveLength(sseBody.length);
    // "é" is 2 bytes, "€" 3, "😀" 4: cuts land inside each.
    const pieces = insideUtf8(enc("aé€"));
    expect(pieces.map((p) => p.length)).toEqual([2, 1, 1, 1, 1]);
    const sse = betweenSseNewlines(enc("data: x\n\ndata: y\r\n\r\n"));
    expect(sse.map((p) => new TextDecoder().decode(p))).toEqual(["data: x\n", "\ndata: y\r\n", "\r\n"]);
    expect(splitAt(enc("abcdef"), [4, 2, 2, 0, 9]).map((p) => p.length)).toEqual([2, 2, 2]);
    expect(randomSplits(7)(sseBody).map((p) => p.length)).toEqual(randomSplits(7)(sseBody).map((p) => p.length));
  });
});

describe("replay", () => {
  it("the HTTP server replays status, headers and body, and keeps each request", async () => {
    const server = await startServer([
      { response: recorded, chunking: byteByByte },
      { response: { status: 429, headers: { "retry-after": "1" }, body: enc("slow down") } },
    ]);
    const first = await fetch(`${server.url}/v1/chat/completions`, { method: "POST", body: '{"turn":1}' });
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("text/event-stream");
    expect(Buffer.from(await first.arrayBuffer()).equals(Buffer.from(sseBody))).toBe(true);
    const second = await fetch(`${server.url}/x`, { method: "POST", body: "not json" });
    expect([second.status, second.headers.get("retry-after"), await second.text()]).toEqual([429, "1", "slow down"]);
    expect(server.script.requests.map((r) => [r.path, r.json])).toEqual([
      ["/v1/chat/completions", { turn: 1 }],
      ["/x", undefined],
    ]);
    expect(server.script.body(0)).toEqual({ turn: 1 });
    const third = await fetch(server.url, { method: "POST", body: "{}" });
    expect(third.status).toBe(599);
    expect(await third.text()).toMatch(/add a step/);
  });

  it("replayFetch delivers exactly the scripted pieces", async () => {
    const { fetch: f, script } = replayFetch([{ response: recorded, chunking: insideUtf8 }]);
    const res = await f("http://replay.invalid/v1/chat/completions", { method: "POST", body: '{"q":1}' });
    const pieces: number[] = [];
    for await (const chunk of res.body!) pieces.push(chunk.length);
    expect(pieces).toEqual(insideUtf8(sseBody).map((p) => p.length));
    expect(script.body()).toEqual({ q: 1 });
  });
});

describe("fixtures", () => {
  it("loads JSON and raw fixtures and refuses one without provenance", () => {
    const dir = mkdtempSync(join(tmpdir(), "glove-fixtures-"));
    writeFileSync(join(dir, "a.json"), JSON.stringify({ status: 201, body: { ok: true } }));
    writeFileSync(
      join(dir, "a.provenance.json"),
      JSON.stringify({ source: "documentation", url: "https://example.com", notes: "n" }),
    );
    writeFileSync(join(dir, "b.sse"), "data: 1\n\n");
    writeFileSync(
      join(dir, "b.provenance.json"),
      JSON.stringify({ source: "recorded", repository: "o/r", path: "p", commit: "a".repeat(40), notes: "" }),
    );
    writeFileSync(join(dir, "c.sse"), "data: 1\n\n");
    writeFileSync(join(dir, "d.sse"), "data: 1\n\n");
    writeFileSync(
      join(dir, "d.provenance.json"),
      JSON.stringify({ source: "recorded", notes: "claims recorded without a source" }),
    );
    const a = loadFixture(dir, "a");
    expect([a.response.status, new TextDecoder().decode(a.response.body)]).toEqual([201, '{"ok":true}']);
    expect(loadFixture(dir, "b").response.headers["content-type"]).toBe("text/event-stream");
    expect(() => loadFixture(dir, "c")).toThrow(FixtureError);
    expect(() => loadFixture(dir, "d")).toThrow(/repository, path and 40-hex commit/);
  });
});
