/**
 * fast-check over glove-core's branch planner and MemoryStore: any sequence of appends, forks
 * (regenerate/edit) and switches keeps every message, never moves one (its path from the start is
 * fixed once stored), makes the chosen message active, and lists as siblings exactly the distinct
 * messages the tree holds at each position of the active branch.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { branchPoints, MemoryStore, planSwitch, type Message } from "glove-core";
import { forkAt } from "../../src/branches/branch-tree.js";

type Op = { kind: "append" } | { kind: "fork"; at: number } | { kind: "switch"; pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.constant({ kind: "append" as const }),
  fc.record({ kind: fc.constant("fork" as const), at: fc.nat(40) }),
  fc.record({ kind: fc.constant("switch" as const), pick: fc.nat(400) }),
);

describe("the branch tree (fast-check)", () => {
  it("keeps every message on its path, switches to any message, and lists the siblings the tree holds", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
        const store = new MemoryStore("tree");
        const paths = new Map<string, string>();
        let n = 0;
        let branchIds = 0;
        const say = (): Message => ({
          sender: n % 2 === 0 ? "user" : "agent",
          id: `m${String(n).padStart(3, "0")}`,
          text: `t${n++}`,
        });
        const remember = (active: Message[]) =>
          active.forEach((m, i) =>
            paths.set(
              m.id!,
              paths.get(m.id!) ??
                active
                  .slice(0, i + 1)
                  .map((x) => x.id)
                  .join("/"),
            ),
          );
        for (const step of ops) {
          const active = await store.getMessages();
          const stored = await store.getBranches();
          if (step.kind === "append" || active.length === 0) await store.appendMessages([say()]);
          else if (step.kind === "fork")
            expect(
              await store.rewriteBranches(
                forkAt(active, step.at % (active.length + 1), [say()], () => `b${branchIds++}`),
              ),
            ).toEqual({ won: true });
          else {
            const all = [...active, ...stored.flatMap((s) => s.messages)];
            const target = all[step.pick % all.length]!.id!;
            const plan = planSwitch(active, stored, target, () => `b${branchIds++}`);
            expect(plan).not.toBe("missing");
            if (plan && plan !== "missing") expect(await store.rewriteBranches(plan)).toEqual({ won: true });
            const now = await store.getMessages();
            expect(now.map((m) => m.id)).toContain(target);
          }
          const now = await store.getMessages();
          now.forEach((m, i) =>
            expect(
              now
                .slice(0, i + 1)
                .map((x) => x.id)
                .join("/"),
            ).toBe(
              paths.get(m.id!) ??
                now
                  .slice(0, i + 1)
                  .map((x) => x.id)
                  .join("/"),
            ),
          );
          remember(now);
          const tree = [...now, ...(await store.getBranches()).flatMap((s) => s.messages)].map((m) => m.id!).sort();
          expect(tree).toEqual([...paths.keys()].sort());
          // Siblings at a position: the distinct messages whose path continues the active prefix there.
          for (const point of branchPoints(now, await store.getBranches())) {
            const prefix = now
              .slice(0, point.index)
              .map((m) => m.id)
              .join("/");
            const expected = [...paths]
              .filter(([, path]) => path.split("/").length === point.index + 1 && path.startsWith(prefix))
              .map(([id]) => id)
              .sort();
            expect(point.siblings.map((s) => s.id)).toEqual(expected);
            expect(point.siblings[point.active]!.id).toBe(now[point.index]!.id);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
