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
      fc.property(
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: -5, max: 130 }),
        (base, keep, appends, after) => {
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
        },
      ),
    );
  });

  it("property: hasAfter says whether the frames after a position hold an event of a type, and undefined where readAfter has a gap", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.constantFrom("text_delta", "turn_end", "tasks"), { maxLength: 40 }),
        fc.integer({ min: -3, max: 45 }),
        (keep, types, after) => {
          const log = new EventLog(0, { maxEvents: keep, maxChars: 1e9 });
          types.forEach((type, i) => (i % 2 ? log.append(type, { i }) : log.appendNumbered(i + 1, type, String(i))));
          const read = log.readAfter(after, 1e9);
          for (const type of ["turn_end", "tasks", "inbox"]) {
            if (read.kind !== "frames") expect(log.hasAfter(after, type)).toBeUndefined();
            else expect(log.hasAfter(after, type)).toBe(read.text.includes(`\nevent: ${type}\n`));
          }
        },
      ),
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

describe("EventLog with connected readers", () => {
  it("property: a connected reader gets every id in order whatever the event sizes, while its backlog fits in maxHeldChars", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ size: fc.integer({ min: 0, max: 5000 }), readAfter: fc.boolean() }), { maxLength: 80 }),
        fc.integer({ min: 1, max: 4 }),
        (events, maxEvents) => {
          const log = new EventLog(0, { maxEvents, maxChars: 100, maxHeldChars: 1e9 });
          const reader = log.attach(0);
          const seen: number[] = [];
          const read = () => {
            const result = log.readAfter(reader.position!, 1e9);
            expect(result.kind).toBe("frames");
            if (result.kind === "frames") {
              seen.push(...idsIn(result.text));
              reader.position = result.lastId;
            }
          };
          for (const { size, readAfter } of events) {
            log.append("e", "x".repeat(size));
            if (readAfter) read();
          }
          read();
          expect(seen).toEqual(events.map((_, i) => i + 1));
          // Once read, frames past the replay window go.
          log.append("e", null);
          if (events.length + 1 > maxEvents) expect(log.canResumeAfter(0)).toBe(false);
        },
      ),
    );
  });

  it("property: what readers hold stays within maxHeldChars (plus the newest frame); a reader past it is told about the gap", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1000, max: 20_000 }),
        (sizes, maxHeldChars) => {
          const log = new EventLog(0, { maxEvents: 1e6, maxChars: 500, maxHeldChars });
          const stalled = log.attach(0);
          let total = 0;
          const frameChars: number[] = [];
          for (const size of sizes) {
            log.append("e", "y".repeat(size));
            frameChars.push(`id: ${frameChars.length + 1}\nevent: e\ndata: "${"y".repeat(size)}"\n\n`.length);
            total += frameChars.at(-1)!;
          }
          const kept = log.readAfter(log.lastId - 1, 1e9);
          expect(kept.kind).toBe("frames"); // the newest frame is always readable
          const held = log.readAfter(stalled.position!, 1e9);
          if (total <= maxHeldChars || sizes.length === 1) {
            expect(held.kind).toBe("frames");
            expect(held.kind === "frames" && idsIn(held.text)).toEqual(sizes.map((_, i) => i + 1));
          } else {
            expect(held.kind).toBe("gap");
            // Everything still kept fits in the bound, but for the newest frame that may be alone larger.
            let first = log.lastId;
            while (first > 1 && log.canResumeAfter(first - 2)) first--;
            const keptChars = frameChars.slice(first - 1).reduce((a, b) => a + b, 0);
            expect(keptChars <= maxHeldChars || first === log.lastId).toBe(true);
          }
        },
      ),
    );
  });

  it("a detached reader holds nothing", () => {
    const log = new EventLog(0, { maxEvents: 1e6, maxChars: 100 });
    const reader = log.attach(0);
    log.append("e", "z".repeat(200));
    log.append("e", "z".repeat(200));
    expect(log.canResumeAfter(0)).toBe(true);
    reader.detach();
    log.append("e", "z".repeat(200));
    expect(log.canResumeAfter(0)).toBe(false);
    expect(log.canResumeAfter(2)).toBe(true);
  });
});

describe("EventLog waits", () => {
  it("whenAfter wakes at once when an event after the position is kept, else once at the next append or at close", () => {
    const log = new EventLog(0, { maxEvents: 10, maxChars: 1e6 });
    const woken: string[] = [];
    log.whenAfter(0, () => woken.push("early"));
    expect(woken).toEqual([]);
    log.append("e", 1);
    expect(woken).toEqual(["early"]);
    log.whenAfter(0, () => woken.push("behind"));
    expect(woken).toEqual(["early", "behind"]);
    log.whenAfter(1, () => woken.push("next"));
    log.whenAfter(1, () => woken.push("other"));
    log.append("e", 2);
    log.append("e", 3);
    expect(woken).toEqual(["early", "behind", "next", "other"]);
    log.whenAfter(3, () => woken.push("closed"));
    log.close();
    log.whenAfter(3, () => woken.push("after close"));
    expect(woken).toEqual(["early", "behind", "next", "other", "closed", "after close"]);
  });

  it("a reader waiting for events still wakes for its heartbeat, and then for the next event", async () => {
    const log = new EventLog(0, { maxEvents: 10, maxChars: 1e6 });
    const source = eventStream({
      log,
      after: 0,
      heartbeatMs: 20,
      retryMs: 1000,
      snapshot: async () => ({ frame: "", lastId: 0 }),
      onClose: () => undefined,
    });
    expect(await source.read()).toBe("retry: 1000\n\n");
    expect(await source.read()).toBe(": heartbeat\n\n");
    const next = source.read();
    log.append("e", { i: 1 });
    expect(idsIn((await next)!)).toEqual([1]);
    source.cancel();
    expect(await source.read()).toBeUndefined();
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
    const source = eventStream({
      log,
      after: 0,
      heartbeatMs: 20,
      retryMs: 1000,
      snapshot: async () => ({ frame: "", lastId: 0 }),
      onClose: () => undefined,
    });
    expect(await source.read()).toBe("retry: 1000\n\n");
    expect(await source.read()).toBe(": heartbeat\n\n");
    source.cancel();
    expect(await source.read()).toBeUndefined();
  });

  it("restartAt places a log that holds no event yet at another position, either way; once it holds one, nothing changes", () => {
    const log = new EventLog(10_000, { maxEvents: 10, maxChars: 1e6 });
    expect(log.restartAt(68)).toBe(true);
    expect([log.baseId, log.lastId]).toEqual([68, 68]);
    expect(log.readAfter(68)).toEqual({ kind: "frames", text: "", lastId: 68 });
    log.appendNumbered(69, "e", "1");
    expect(log.restartAt(5)).toBe(false);
    expect(log.lastId).toBe(69);
  });
});
