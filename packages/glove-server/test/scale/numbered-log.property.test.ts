import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { EventLog } from "../../src/conversations/event-log.js";

function idsIn(text: string): number[] {
  return [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
}

/**
 * The scale mode copies each conversation's Redis stream into a local EventLog with the stream's
 * own ids (`appendNumbered`). Streams can skip ids (trimmed while an instance was not following,
 * or a Redis that lost its data): a reader must then get a gap (→ snapshot), never frames that
 * silently skip ids.
 */
describe("EventLog.appendNumbered (a local copy of a shared stream)", () => {
  it("property: a reader either gets exactly the next ids it has not seen, or a gap", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1000 }),
        fc.array(fc.oneof(fc.constant(1), fc.constant(1), fc.constant(1), fc.integer({ min: -3, max: 50 })), {
          maxLength: 80,
        }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 200 }),
        (base, steps, keep, cursorOffset) => {
          const log = new EventLog(base, { maxEvents: keep, maxChars: 1e9 });
          let id = base;
          const delivered: number[] = [];
          for (const step of steps) {
            id += step;
            const before = log.lastId;
            log.appendNumbered(id, "e", JSON.stringify({ id }));
            if (id > before) delivered.push(id);
          }
          // Old or repeated ids are ignored: the log's ids only grow.
          expect(log.lastId).toBe(Math.max(base, ...delivered));
          const cursor = base + cursorOffset;
          const read = log.readAfter(cursor, 1e9);
          if (read.kind !== "frames") return;
          const ids = idsIn(read.text);
          // Frames continue right after the cursor, without a hole, and are ids the stream had.
          if (ids.length) expect(ids[0]).toBe(cursor + 1);
          for (let i = 1; i < ids.length; i++) expect(ids[i]).toBe(ids[i - 1]! + 1);
          for (const seen of ids) expect(delivered).toContain(seen);
          expect(ids.at(-1) ?? cursor).toBe(log.lastId);
        },
      ),
    );
  });

  it("a jump restarts the window: positions before it get a gap, positions after continue", () => {
    const log = new EventLog(10, { maxEvents: 100, maxChars: 1e9 });
    log.appendNumbered(11, "a", "1");
    log.appendNumbered(12, "b", "2");
    log.appendNumbered(20, "c", "3");
    expect(log.readAfter(11)).toEqual({ kind: "gap" });
    const read = log.readAfter(19);
    expect(read.kind === "frames" && read.text).toBe("id: 20\nevent: c\ndata: 3\n\n");
  });

  it("property: across a new owner's marked jumps, a reader at any id the stream had reads exactly the events after it; ids inside a jump get a gap", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1000 }),
        // Each step: 1 (the next id) or a jump of 2..500 that a new owner marks as following the last id.
        fc.array(fc.oneof(fc.constant(1), fc.constant(1), fc.integer({ min: 2, max: 500 })), { maxLength: 60 }),
        fc.integer({ min: 1, max: 80 }),
        fc.nat(),
        (base, steps, keep, pick) => {
          const log = new EventLog(base, { maxEvents: keep, maxChars: 1e9 });
          const ids: number[] = [];
          let id = base;
          for (const step of steps) {
            const prev = id;
            id += step;
            log.appendNumbered(id, "e", String(id), step === 1 ? undefined : prev);
            ids.push(id);
          }
          const kept = ids.slice(-keep);
          // Any position the stream had, from the one before the kept window to the last: the rest, in order.
          const positions = [kept.length < ids.length ? ids[ids.length - kept.length - 1]! : base, ...kept];
          const at = positions[pick % positions.length]!;
          const read = log.readAfter(at, 1e9);
          expect(read.kind).toBe("frames");
          if (read.kind === "frames") expect(idsIn(read.text)).toEqual(kept.filter((k) => k > at));
          // An id skipped by a jump was never in this stream: no resuming from it.
          const jumped = ids.find((k, i) => k - (i === 0 ? base : ids[i - 1]!) > 1);
          if (jumped !== undefined && kept.includes(jumped)) expect(log.readAfter(jumped - 1)).toEqual({ kind: "gap" });
        },
      ),
    );
  });
});
