import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backoffDelay, SseParser, type SseFrame } from "glove-client";

function parse(chunks: string[]): { frames: SseFrame[]; comments: string[]; retry: number[] } {
  const frames: SseFrame[] = [];
  const comments: string[] = [];
  const retry: number[] = [];
  const parser = new SseParser({
    frame: (f) => frames.push(f),
    comment: (c) => comments.push(c),
    retry: (ms) => retry.push(ms),
  });
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return { frames, comments, retry };
}

describe("SSE parser", () => {
  it("reads glove-server's frames, comments and retry", () => {
    const out = parse(['retry: 1000\n\n: heartbeat\n\nid: 7\nevent: text_delta\ndata: {"text":"Hi"}\n\n']);
    expect(out.frames).toEqual([{ id: "7", event: "text_delta", data: '{"text":"Hi"}' }]);
    expect(out.comments).toEqual(["heartbeat"]);
    expect(out.retry).toEqual([1000]);
  });

  it("follows the format: CRLF and CR line ends, multi-line data, default event, no-data frames dropped, partial frame at the end dropped", () => {
    const out = parse(["data: a\r\ndata: b\r\n\r\nevent: x\r\rdata:c\rid: 3\r\r", "id: 9\ndata: cut"]);
    expect(out.frames).toEqual([
      { id: undefined, event: "message", data: "a\nb" },
      { id: "3", event: "message", data: "c" },
    ]);
  });

  it("gives the same frames however the bytes are split (also between CR and LF)", () => {
    const frame = fc.record({
      id: fc.option(fc.nat().map(String), { nil: undefined }),
      event: fc.constantFrom("text_delta", "snapshot", "turn_end"),
      data: fc.array(fc.string({ unit: fc.constantFrom("a", "b", " ", ":", "{", "é", "🙂") }), {
        minLength: 1,
        maxLength: 3,
      }),
    });
    fc.assert(
      fc.property(
        fc.array(frame, { maxLength: 6 }),
        fc.constantFrom("\n", "\r\n", "\r"),
        fc.array(fc.nat(), { maxLength: 8 }),
        (frames, eol, cuts) => {
          const text = frames
            .map(
              (f) =>
                `${f.id !== undefined ? `id: ${f.id}${eol}` : ""}event: ${f.event}${eol}${f.data.map((d) => `data: ${d}${eol}`).join("")}${eol}`,
            )
            .join(`: heartbeat${eol}${eol}`);
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const chunks = [...points, text.length].map((end, i) => text.slice(i === 0 ? 0 : points[i - 1], end));
          const expected = frames.map((f) => ({ id: f.id, event: f.event, data: f.data.join("\n") }));
          expect(parse(chunks).frames).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("backoff", () => {
  it("grows exponentially up to the cap, with bounded jitter", () => {
    const pinned = { initialMs: 100, maxMs: 1000, factor: 2, jitter: 0 };
    expect([1, 2, 3, 4, 5, 9].map((n) => backoffDelay(n, pinned))).toEqual([100, 200, 400, 800, 1000, 1000]);
    for (let i = 0; i < 200; i++) {
      const d = backoffDelay(3, { initialMs: 100, jitter: 0.2 });
      expect(d).toBeGreaterThanOrEqual(320);
      expect(d).toBeLessThanOrEqual(480);
    }
  });
});
