import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { EventLog } from "../src/conversations/event-log.js";
import { eventStream } from "../src/conversations/sse-stream.js";

function idsIn(text: string): number[] {
  return [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
}

describe("EventLog", () => {
  it("continues after the base id and replays only what a reader has not seen", () => {
    const log = new EventLog(100, { maxEvents: 10, maxChars: 1e6 });
    for (let i = 0; i < 5; i++) log.append("text_delta", { text: String(i) });
    expect(log.lastId).toBe(105);
    const read = log.readAfter(102);
    expect(read.kind === "frames" && idsIn(read.text)).toEqual([103, 104, 105]);
    // Ids of an earlier process (at or below the base) cannot be continued.
    expect(log.canResumeAfter(99)).toBe(false);
    expect(log.canResumeAfter(106)).toBe(false);
  });

  it("property: any reader position either continues with exactly the next ids or is told about the gap", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 120 }), fc.integer({ min: -5, max: 130 }), (base, keep, appends, after) => {
        const log = new EventLog(base, { maxEvents: keep, maxChars: 1e9 });
        for (let i = 0; i < appends; i++) log.append("e", { i });
        const read = log.readAfter(base + after, 1e9);
        const position = base + after;
        const firstKept = Math.max(base + 1, base + appends - keep + 1);
        const resumable = position >= base && position <= base + appends && position >= firstKept - 1;
        if (!resumable) {
          expect(read.kind).toBe("gap");
          return;
        }
        expect(read.kind).toBe("frames");
        const got = read.kind === "frames" ? idsIn(read.text) : [];
        expect(got).toEqual(Array.from({ length: base + appends - position }, (_, i) => position + 1 + i));
      }),
    );
  });

  it("trims by characters too, keeping memory bounded whatever the event sizes", () => {
    const log = new EventLog(0, { maxEvents: 1e6, maxChars: 10_000 });
    for (let i = 0; i < 1000; i++) log.append("text_delta", { text: "x".repeat(500) });
    const read = log.readAfter(995, 1e9); // ~18 frames of ~530 characters fit in 10 000
    expect(read.kind).toBe("frames");
    expect(log.readAfter(0).kind).toBe("gap");
  });
});

describe("event stream of one reader", () => {
  it("sends a snapshot to a reader that fell behind the window, then continues live", async () => {
    const log = new EventLog(0, { maxEvents: 3, maxChars: 1e6 });
    for (let i = 0; i < 10; i++) log.append("e", { i });
    let closed = false;
    const source = eventStream({
      log,
      after: 2,
      heartbeatMs: 10_000,
      retryMs: 500,
      snapshot: async () => ({ frame: `id: ${log.lastId}\nevent: snapshot\ndata: {}\n\n`, lastId: log.lastId }),
      onClose: () => (closed = true),
    });
    const first = await source.read();
    expect(first).toMatch(/^retry: 500\n\nid: 10\nevent: snapshot/);
    const next = source.read();
    log.append("e", { i: 10 });
    expect(idsIn((await next)!)).toEqual([11]);
    log.close();
    expect(await source.read()).toBeUndefined();
    expect(closed).toBe(true);
  });

  it("writes heartbeat comments while nothing happens", async () => {
    const log = new EventLog(0, { maxEvents: 10, maxChars: 1e6 });
    const source = eventStream({ log, after: 0, heartbeatMs: 20, retryMs: 1000, snapshot: async () => ({ frame: "", lastId: 0 }), onClose: () => undefined });
    expect(await source.read()).toBe("retry: 1000\n\n");
    expect(await source.read()).toBe(": heartbeat\n\n");
    source.cancel();
    expect(await source.read()).toBeUndefined();
  });
});
