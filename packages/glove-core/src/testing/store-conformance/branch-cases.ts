/**
 * Cases for the branch group (`getBranches`, `rewriteBranches`; decision 0025): a rewrite keeps
 * a prefix of the active branch, sets stretches aside or brings them back and appends, all at once;
 * it is refused (`won: false`, nothing written) when the active branch changed since the caller
 * read it, so of concurrent writers exactly one wins — also across stores on one session. A random
 * case drives forks and switches through glove-core's own planner and checks the tree survives.
 */
import { forkAt, planSwitch } from "../../branches/branch-tree.js";
import type { BranchRewrite, Message, StoreAdapter, StoredBranch } from "../../types/index.js";
import { assert, assertEqual, StoreConformanceError } from "./assertions.js";
import { hasCapability } from "./capabilities.js";
import type { CaseContext } from "./parity-cases.js";
import { Seeded } from "./random-messages.js";
import { assertMessages, assertRefused } from "./store-checks.js";
import type { StoreConformanceCase } from "./types.js";

type WithBranches = StoreAdapter & Required<Pick<StoreAdapter, "getBranches" | "rewriteBranches">>;

const say = (sender: Message["sender"], text: string): Message => ({ sender, id: `m-${text}`, text });
const turn = (n: string): Message[] => [say("user", `q${n}`), say("agent", `a${n}`)];
const expected = (active: Message[]) => ({ count: active.length, lastId: active.at(-1)?.id ?? null });

/** Every message of the tree (active branch and stretches), by id: the whole conversation. */
async function everything(store: WithBranches): Promise<string[]> {
  const [active, stored] = await Promise.all([store.getMessages(), store.getBranches()]);
  return [...active, ...stored.flatMap((stretch) => stretch.messages)].map((m) => m.id ?? "").sort();
}

export function branchCases({ define, open, required, options }: CaseContext): StoreConformanceCase[] {
  const openBranches = async (sessionId: string): Promise<WithBranches | undefined> => {
    const store = await open(sessionId);
    return hasCapability(store, "branches", required) ? (store as WithBranches) : undefined;
  };

  return [
    define(
      "branches: a rewrite keeps a prefix, sets the rest aside and appends, at once; a second store sees the same tree",
      async (session) => {
        const id = session("rewrite");
        const store = await openBranches(id);
        if (!store) return;
        assertEqual(await store.getBranches(), [], "getBranches() of a new session");
        const active = [...turn("1"), ...turn("2")];
        await store.appendMessages(active);
        const aside: StoredBranch = { id: "b-1", at: 2, parentId: "m-a1", messages: turn("2") };
        const change: BranchRewrite = {
          expected: expected(active),
          keep: 2,
          remove: [],
          add: [aside],
          append: [say("user", "q2-edited")],
        };
        assertEqual(await store.rewriteBranches(change), { won: true }, "rewriteBranches() from the state just read");
        const now = [...turn("1"), say("user", "q2-edited")];
        await assertMessages(store, now, "after a rewrite", required);
        assertEqual(await store.getBranches(), [aside], "getBranches() after a rewrite");
        const other = (await openBranches(id))!;
        assertEqual(await other.getMessages(), now, "getMessages() of a second store after a rewrite");
        assertEqual(await other.getBranches(), [aside], "getBranches() of a second store after a rewrite");
        // Appends go on after the new branch, and bringing the stretch back swaps them again.
        await other.appendMessages([say("agent", "a2-edited")]);
        const edited = [...now, say("agent", "a2-edited")];
        const back: BranchRewrite = {
          expected: expected(edited),
          keep: 2,
          remove: ["b-1"],
          add: [{ id: "b-2", at: 2, parentId: "m-a1", messages: edited.slice(2) }],
          append: turn("2"),
        };
        assertEqual(await store.rewriteBranches(back), { won: true }, "rewriteBranches() bringing a stretch back");
        await assertMessages(store, active, "after switching back", required);
        assertEqual(
          (await store.getBranches()).map((b) => [b.id, b.messages.map((m) => m.text)]),
          [["b-2", ["q2-edited", "a2-edited"]]],
          "getBranches() after switching back",
        );
      },
    ),

    define(
      "branches: a rewrite planned from a state that changed is refused (won: false) and writes nothing",
      async (session) => {
        const store = await openBranches(session("stale"));
        if (!store) return;
        const active = turn("1");
        await store.appendMessages(active);
        const stale = [
          { expected: { count: 1, lastId: "m-q1" }, label: "a shorter count" },
          { expected: { count: 2, lastId: "m-other" }, label: "another last id" },
          { expected: { count: 2, lastId: null }, label: "a null last id" },
        ];
        for (const { expected: wrong, label } of stale) {
          const outcome = await store.rewriteBranches({ expected: wrong, keep: 0, remove: [], add: [], append: [] });
          assertEqual(outcome, { won: false }, `rewriteBranches() expecting ${label}`);
        }
        const gone = await store.rewriteBranches({
          expected: expected(active),
          keep: 2,
          remove: ["never-stored"],
          add: [],
          append: [],
        });
        assertEqual(gone, { won: false }, "rewriteBranches() removing a stretch that is not stored");
        await assertMessages(store, active, "after refused rewrites", required);
        assertEqual(await store.getBranches(), [], "getBranches() after refused rewrites");
      },
    ),

    define(
      "branches: of concurrent rewrites from the same state (several stores on one session), exactly one wins",
      async (session) => {
        const id = session("race");
        const store = await openBranches(id);
        if (!store) return;
        const active = [...turn("1"), ...turn("2")];
        await store.appendMessages(active);
        const writers = [
          store,
          ...(await Promise.all(Array.from({ length: 5 }, () => openBranches(id)))),
        ] as WithBranches[];
        const outcomes = await Promise.all(
          writers.map((writer, i) =>
            writer.rewriteBranches({
              expected: expected(active),
              keep: 2,
              remove: [],
              add: [{ id: `b-${i}`, at: 2, parentId: "m-a1", messages: turn("2") }],
              append: [say("user", `edit-${i}`)],
            }),
          ),
        );
        const winners = outcomes.flatMap((outcome, i) => (outcome.won ? [i] : []));
        assertEqual(winners.length, 1, `writers that won (${JSON.stringify(outcomes)})`);
        const winner = winners[0]!;
        await assertMessages(store, [...turn("1"), say("user", `edit-${winner}`)], "after the race", required);
        assertEqual(
          (await store.getBranches()).map((b) => b.id),
          [`b-${winner}`],
          "getBranches() after the race",
        );
      },
    ),

    define(
      "branches: the last compaction follows the active branch; invalid rewrites are refused whole",
      async (session) => {
        const store = await openBranches(session("compaction"));
        if (!store) return;
        const summary: Message = { sender: "agent", id: "m-summary", text: "summary", is_compaction: true };
        const active = [...turn("1"), summary, ...turn("2")];
        await store.appendMessages(active);
        const aside = { id: "b-1", at: 2, parentId: "m-a1", messages: active.slice(2) };
        assertEqual(
          await store.rewriteBranches({
            expected: expected(active),
            keep: 2,
            remove: [],
            add: [aside],
            append: turn("3"),
          }),
          { won: true },
          "rewriteBranches() setting a compaction aside",
        );
        await assertMessages(store, [...turn("1"), ...turn("3")], "after setting the compaction aside", required);
        const now = [...turn("1"), ...turn("3")];
        await assertRefused(
          () => store.rewriteBranches({ expected: expected(now), keep: 9, remove: [], add: [], append: [] }),
          "rewriteBranches() keeping more than the expected count",
        );
        await assertRefused(
          () =>
            store.rewriteBranches({
              expected: expected(now),
              keep: 1,
              remove: [],
              add: [{ id: "b-2", at: 1, parentId: null, messages: [] }],
              append: [],
            }),
          "rewriteBranches() with an empty stretch",
        );
        await assertRefused(
          () =>
            store.rewriteBranches({
              expected: expected(now),
              keep: 1,
              remove: [],
              add: [],
              append: [{ sender: "robot", text: "x" } as unknown as Message],
            }),
          "rewriteBranches() appending an invalid message",
        );
        const twice = { id: "b-3", at: 1, parentId: "m-q1", messages: now.slice(1) };
        await assertRefused(
          () =>
            store.rewriteBranches({ expected: expected(now), keep: 1, remove: [], add: [twice, twice], append: [] }),
          "rewriteBranches() adding one id twice",
        );
        await assertMessages(store, now, "after refused rewrites", required);
        assertEqual(
          (await store.getBranches()).map((b) => b.id),
          ["b-1"],
          "getBranches() after refused rewrites",
        );
        // The compaction comes back with its branch.
        const back = planSwitch(now, await store.getBranches(), "m-summary", () => "b-4");
        assert(back !== undefined && back !== "missing", "planSwitch() to the set-aside compaction");
        assertEqual(await store.rewriteBranches(back), { won: true }, "rewriteBranches() bringing the compaction back");
        await assertMessages(store, active, "after bringing the compaction back", required);
      },
    ),

    define(
      "branches: random forks, switches and appends keep every message and the path to it (seeded)",
      async (session) => {
        const seed = options.propertySeed ?? Math.floor(Math.random() * 2 ** 31);
        const random = new Seeded(seed);
        const again = `(seed ${seed}; pass propertySeed: ${seed} to storeConformanceCases to repeat)`;
        for (let round = 0; round < (options.propertyRuns ?? 4); round++) {
          const store = await openBranches(session(`random-${round}`));
          if (!store) return;
          let made = 0;
          const newId = () => `r${round}-b${made++}`;
          // The oracle: each message's path from the start, fixed once it is stored.
          const paths = new Map<string, string>();
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
          let n = 0;
          for (let step = 0; step < 14; step++) {
            const active = await store.getMessages();
            const stored = await store.getBranches();
            const all = [...active, ...stored.flatMap((s) => s.messages)];
            const choice = random.int(3);
            let change: BranchRewrite | undefined;
            if (choice === 0 || active.length === 0) {
              await store.appendMessages([say(random.chance(0.5) ? "user" : "agent", `r${round}-${n++}`)]);
            } else if (choice === 1) {
              change = forkAt(active, random.int(active.length + 1), [say("user", `r${round}-${n++}`)], newId);
            } else {
              const target = random.pick(all).id!;
              const plan = planSwitch(active, stored, target, newId);
              if (plan === "missing") throw new StoreConformanceError(`planSwitch() lost message ${target} ${again}`);
              change = plan;
            }
            if (change)
              assertEqual(
                await store.rewriteBranches(change),
                { won: true },
                `rewriteBranches() at step ${step} ${again}`,
              );
            const now = await store.getMessages();
            now.forEach((m, i) => {
              const path = now
                .slice(0, i + 1)
                .map((x) => x.id)
                .join("/");
              if (paths.has(m.id!) && paths.get(m.id!) !== path)
                throw new StoreConformanceError(`message ${m.id} moved from ${paths.get(m.id!)} to ${path} ${again}`);
            });
            remember(now);
            assertEqual(
              await everything(store),
              [...paths.keys()].sort(),
              `every message of the tree after step ${step} ${again}`,
            );
          }
        }
      },
    ),
  ];
}
