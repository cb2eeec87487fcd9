import { expect, it } from "vitest";
import type { BranchPoint, Message } from "glove-core";
import type { startServer, TestServer } from "../support/harness.js";
import type { SseClient, SseEvent } from "../support/sse-client.js";

type Start = (options?: Parameters<typeof startServer>[0]) => Promise<TestServer>;

/** The history a tab holds: its last snapshot, then appends and branch changes as they come. */
export function followed(events: ReadonlyArray<Pick<SseEvent, "event" | "data">>): {
  messages: Message[];
  points: BranchPoint[];
} {
  const start = events.findLastIndex((e) => e.event === "snapshot");
  const snapshot = events[start]!.data as { messages: Message[]; branches: BranchPoint[] };
  let messages = [...snapshot.messages];
  let points = snapshot.branches;
  for (const { event, data } of events.slice(start + 1)) {
    if (event === "messages_appended") messages.push(...(data as { messages: Message[] }).messages);
    if (event === "branches_changed") {
      const change = data as { keep: number; messages: Message[]; points: BranchPoint[] };
      messages = [...messages.slice(0, change.keep), ...change.messages];
      points = change.points;
    }
  }
  return { messages, points };
}

const texts = (messages: Message[]) => messages.map((m) => m.text);

/** Waits for the turn `turnId` to end on `client`. */
const ended = (client: SseClient, turnId: string) => client.waitForEvent("turn_end", (d) => d.turnId === turnId);

/** Regenerate, edit and switch over HTTP (decision 0025), the same on every storage and in the scale mode. */
export function branchCases(start: Start): void {
  it("regenerate, edit and switch: a second tab follows every change, the snapshot carries the branch points", async () => {
    const s = await start({
      kit: { script: [{ text: "First answer." }, { text: "Second answer." }, { text: "Answer to the edit." }] },
    });
    const id = await s.conversation();
    const tab = s.events(id);
    await tab.waitForEvent("snapshot");
    const sent = await s.api(`/conversations/${id}/messages`, { body: { text: "hello" } });
    await ended(tab, sent.body.turnId);

    const regenerated = await s.api(`/conversations/${id}/regenerate`, { body: {} });
    expect(regenerated.status).toBe(202);
    await ended(tab, regenerated.body.turnId);
    const branches = await s.api(`/conversations/${id}/branches`);
    expect(texts(branches.body.messages)).toEqual(["hello", "Second answer."]);
    expect(branches.body.points).toHaveLength(1);
    const [point] = branches.body.points as BranchPoint[];
    expect(point!.siblings.map((sibling) => sibling.text)).toEqual(["First answer.", "Second answer."]);
    expect(point!.active).toBe(1);
    expect(followed(tab.events)).toEqual({ messages: branches.body.messages, points: branches.body.points });
    const begun = tab.events.find(
      (e) => e.event === "turn_start" && (e.data as { turnId: string }).turnId === regenerated.body.turnId,
    );
    expect((begun!.data as { branch?: string }).branch).toBe("regenerate");

    const hello = (branches.body.messages as Message[])[0]!;
    const edited = await s.api(`/conversations/${id}/messages/${hello.id}/edit`, { body: { text: "hello again" } });
    expect(edited.status).toBe(202);
    await ended(tab, edited.body.turnId);
    const afterEdit = await s.api(`/conversations/${id}/branches`);
    expect(texts(afterEdit.body.messages)).toEqual(["hello again", "Answer to the edit."]);
    expect((afterEdit.body.points as BranchPoint[])[0]!.siblings.map((sibling) => sibling.text)).toEqual([
      "hello",
      "hello again",
    ]);

    // Back to the first question: its regenerated answer comes back with it.
    const switched = await s.api(`/conversations/${id}/branches/${hello.id}`, { method: "POST" });
    expect(switched.status).toBe(200);
    expect(texts(switched.body.messages)).toEqual(["hello", "Second answer."]);
    await tab.waitFor(() => texts(followed(tab.events).messages).join("|") === "hello|Second answer.");
    // A new tab starts from a snapshot with the same branch points; the conversation goes on from the active branch.
    const late = s.events(id);
    const snapshot = (await late.waitForEvent("snapshot")).data as { messages: Message[]; branches: BranchPoint[] };
    expect(texts(snapshot.messages)).toEqual(["hello", "Second answer."]);
    expect(snapshot.branches.map((p) => [p.index, p.active, p.siblings.length])).toEqual([
      [0, 0, 2],
      [1, 1, 2],
    ]);
    expect((await s.api(`/conversations/${id}`)).body.branches).toEqual(snapshot.branches);
  });

  it("refuses: 409 while a turn runs, 404 for a message of another branch or conversation, 400 for an agent message, 409 to the loser of two edits at once", async () => {
    const s = await start({
      kit: { script: [{ text: "One." }, { toolCalls: [{ name: "slow_tool", input: {} }] }, { text: "Edited." }] },
    });
    const id = await s.conversation();
    const other = await s.conversation();
    const tab = s.events(id);
    await tab.waitForEvent("snapshot");
    await ended(tab, (await s.api(`/conversations/${id}/messages`, { body: { text: "first" } })).body.turnId);
    const [first, answer] = (await s.api(`/conversations/${id}/branches`)).body.messages as Message[];

    expect((await s.api(`/conversations/${id}/messages/${answer!.id}/edit`, { body: { text: "x" } })).status).toBe(400);
    expect((await s.api(`/conversations/${other}/messages/${first!.id}/edit`, { body: { text: "x" } })).status).toBe(
      404,
    );
    expect((await s.api(`/conversations/${other}/branches/${first!.id}`, { method: "POST" })).status).toBe(404);
    expect((await s.api(`/conversations/${other}/regenerate`, { body: {} })).status).toBe(400);
    expect((await s.api(`/conversations/${id}/messages/${first!.id}/edit`, { body: { text: "" } })).status).toBe(400);

    const running = await s.api(`/conversations/${id}/messages`, { body: { text: "second" } });
    await tab.waitForEvent("tool_use");
    for (const [path, body] of [
      [`/conversations/${id}/regenerate`, {}],
      [`/conversations/${id}/messages/${first!.id}/edit`, { text: "edited" }],
      [`/conversations/${id}/branches/${first!.id}`, {}],
    ] as const) {
      const refused = await s.api(path, { body });
      expect(refused.status, path).toBe(409);
      expect(refused.body.error.code).toBe("GLOVE_BUSY");
    }
    await s.api(`/conversations/${id}/abort`, { body: {} });
    await ended(tab, running.body.turnId);

    // Two tabs edit the same message at once: exactly one wins; the other is told the conversation
    // is busy (409) or, when the winner's turn already ended, that the message is on another branch (404).
    const race = await Promise.all(
      ["tab one", "tab two"].map((text) =>
        s.api(`/conversations/${id}/messages/${first!.id}/edit`, { body: { text } }),
      ),
    );
    expect(race.filter((r) => r.status === 202)).toHaveLength(1);
    expect([404, 409]).toContain(race.find((r) => r.status !== 202)!.status);
    const winner = race.find((r) => r.status === 202)!;
    await ended(tab, winner.body.turnId);
    const now = await s.api(`/conversations/${id}/branches`);
    expect(texts(now.body.messages)).toHaveLength(2);
    expect(["tab one", "tab two"]).toContain(texts(now.body.messages)[0]);
    // The edited-away message is on another branch now: editing it is a 404.
    expect((await s.api(`/conversations/${id}/messages/${first!.id}/edit`, { body: { text: "again" } })).status).toBe(
      404,
    );
    expect(followed(tab.events).messages).toEqual(now.body.messages);
  });
}
