import fc from "fast-check";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SSEParser, type SSEEvent, type SSEParserOptions } from "glove-core/sse";
import { importGraph, srcDir } from "../support/import-graph.js";

interface Parsed {
  events: SSEEvent[];
  comments: string[];
  retry: number[];
}

function parse(
  chunks: string[],
  options: Omit<SSEParserOptions, "onComment" | "onRetry"> = {},
  strict = false,
): Parsed {
  const out: Parsed = { events: [], comments: [], retry: [] };
  const parser = new SSEParser((event) => out.events.push(event), {
    ...options,
    onComment: (text) => out.comments.push(text),
    onRetry: (ms) => out.retry.push(ms),
  });
  for (const chunk of chunks) parser.feed(chunk);
  if (strict) parser.discard();
  else parser.end();
  return out;
}

describe("glove-core/sse", () => {
  it("imports nothing (browser-safe)", () => {
    const { files, external } = importGraph(join(srcDir, "sse", "index.ts"));
    expect(files.size).toBeGreaterThanOrEqual(1);
    expect([...external]).toEqual([]);
  });

  it("reports comments without their colon and leading spaces, and numeric retry lines only", () => {
    const out = parse([": heartbeat\n:  two\n:\nretry: 1500\nretry: soon\nretry\n\ndata: x\n\n"]);
    expect(out.comments).toEqual(["heartbeat", "two", ""]);
    expect(out.retry).toEqual([1500]);
    expect(out.events).toEqual([{ event: "message", data: "x" }]);
  });

  it("keeps the last id for later events by default (the format's lastEventId), only the event's own with idScope \"event\"", () => {
    const text = "id: 7\ndata: a\n\ndata: b\n\nid: 9\nid\ndata: c\n\n";
    expect(parse([text]).events.map((e) => e.id)).toEqual(["7", "7", ""]);
    expect(parse([text], { idScope: "event" }).events.map((e) => e.id)).toEqual(["7", undefined, ""]);
  });

  it("an id on a blank-line block without data does not leak into the next event when scoped to events", () => {
    expect(parse(["id: 3\n\ndata: x\n\n"], { idScope: "event" }).events).toEqual([{ event: "message", data: "x" }]);
    expect(parse(["id: 3\n\ndata: x\n\n"]).events).toEqual([{ event: "message", data: "x", id: "3" }]);
  });

  it("end() dispatches an event lacking only its blank line; discard() drops it, as the format says", () => {
    expect(parse(["data: [DONE]\n"]).events).toEqual([{ event: "message", data: "[DONE]" }]);
    expect(parse(["data: [DONE]\n"], {}, true).events).toEqual([]);
    expect(parse(["data: cut"]).events).toEqual([]);
  });

  it("gives the same events and comments however the text is split, for every line ending and id scope", () => {
    const frame = fc.record({
      id: fc.option(fc.nat().map(String), { nil: undefined }),
      event: fc.option(fc.constantFrom("text_delta", "snapshot"), { nil: undefined }),
      data: fc.array(fc.string({ unit: fc.constantFrom("a", " ", ":", "{", "é", "🙂", "\0") }), {
        minLength: 1,
        maxLength: 3,
      }),
    });
    fc.assert(
      fc.property(
        fc.array(frame, { maxLength: 6 }),
        fc.constantFrom("\n", "\r\n", "\r"),
        fc.constantFrom<"stream" | "event">("stream", "event"),
        fc.array(fc.nat(), { maxLength: 8 }),
        (frames, eol, idScope, cuts) => {
          const text = frames
            .map(
              (f) =>
                (f.id !== undefined ? `id: ${f.id}${eol}` : "") +
                (f.event !== undefined ? `event: ${f.event}${eol}` : "") +
                f.data.map((d) => `data: ${d}${eol}`).join("") +
                eol,
            )
            .join(`: beat${eol}${eol}`);
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const chunks = [...points, text.length].map((end, i) => text.slice(i === 0 ? 0 : points[i - 1], end));
          let last: string | undefined;
          const expected = frames.map((f) => {
            last = idScope === "event" ? f.id : (f.id ?? last);
            const event: SSEEvent = { event: f.event ?? "message", data: f.data.join("\n") };
            if (last !== undefined) event.id = last;
            return event;
          });
          const out = parse(chunks, { idScope });
          expect(out.events).toEqual(expected);
          expect(out.comments).toEqual(frames.slice(1).map(() => "beat"));
        },
      ),
      { numRuns: 300 },
    );
  });
});
