/**
 * The rules of decision 0025 that involve more than the tree: a question that waits for a person
 * blocks regenerate and edit (from any Glove over the store), a compaction summary belongs to
 * its branch, and tasks stay as they are when the branch changes.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BranchError, Glove, MemoryStore, TASK_TOOL_NAME } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { makeGlove } from "../support/make-glove.js";

const refused = (reason: string) => (error: unknown) => BranchError.isInstance(error) && error.reason === reason;

describe("branch operations and the rest of the conversation", () => {
  it("a stored question waiting for a person refuses regenerate and edit, from another Glove over the store too", async () => {
    const store = new MemoryStore("waiting");
    const first = makeGlove([{ text: "Hi." }, { toolCalls: [{ name: "ask", input: {}, id: "call-ask" }] }], { store });
    first.glove.fold({
      name: "ask",
      description: "Asks.",
      inputSchema: z.object({}),
      do: async (_input, display) => display.pushAndWait({ input: {} }),
    });
    await first.glove.processRequest("hello");
    void first.glove.processRequest("ask me").catch(() => undefined);
    while (((await store.getWaits({ status: "pending" })) ?? []).length === 0)
      await new Promise((resolve) => setTimeout(resolve, 5));

    // Another process's Glove over the same store: the question is pending for it, nothing runs there.
    const other = new Glove({ store, model: new ScriptedModel([]), systemPrompt: "x" }).build();
    const [hello] = (await other.branches()).messages;
    const before = await store.getMessages();
    await expect(other.regenerate()).rejects.toSatisfy(refused("waiting"));
    await expect(other.editMessage(hello!.id!, "changed")).rejects.toSatisfy(refused("waiting"));
    await expect(first.glove.regenerate()).rejects.toSatisfy(refused("busy"));
    expect(await store.getMessages()).toEqual(before);
    expect(await store.getBranches()).toEqual([]);
  });

  it("a compaction summary belongs to its branch: an edit before it sets it aside, the model then sees the new branch from the start", async () => {
    // Every second turn is summarised; the counters belong to the conversation, so the edit's turn is summarised too.
    const script = [
      { text: "a1" },
      { text: "a2" },
      { text: "The summary." },
      { text: "a3" },
      { text: "edited answer" },
    ];
    const { glove, model, store } = makeGlove([], {
      model: new ScriptedModel(script, { fallback: { text: "Another summary." } }),
      compaction_config: { compaction_instructions: "SUMMARIZE", max_turns: 2 },
    });
    await glove.processRequest("q1");
    await glove.processRequest("q2");
    await glove.processRequest("q3");
    const stored = await store.getMessages();
    expect(stored.some((m) => m.is_compaction)).toBe(true);
    // The summary's request saw the history; the next one started from the summary.
    expect(model.requests[3]!.messages[0]!.text).toContain("The summary.");

    await glove.editMessage(stored.find((m) => m.text === "q2")!.id!, "q2 edited");
    const answered = model.requests.find((request) => request.messages.at(-1)?.text === "q2 edited")!;
    expect(answered.messages.map((m) => m.text)).toEqual(["q1", "a1", "q2 edited"]);
    const branch = (await store.getMessages()).map((m) => m.text);
    expect(branch.slice(0, 4)).toEqual(["q1", "a1", "q2 edited", "edited answer"]);
    expect(branch.filter((text) => text.includes("The summary."))).toEqual([]);
    // Back on the old branch, the model's view starts from its summary again.
    await glove.switchBranch(stored.find((m) => m.is_compaction)!.id!);
    expect((await store.getMessagesSinceLastCompaction!())[0]!.text).toContain("The summary.");
  });

  it("tasks belong to the conversation: an edit leaves them as they are", async () => {
    const todos = [{ content: "Book", activeForm: "Booking", status: "completed" }];
    const { glove, store } = makeGlove([
      { toolCalls: [{ name: TASK_TOOL_NAME, input: { todos } }] },
      { text: "Done." },
      { text: "Again." },
    ]);
    await glove.processRequest("plan it");
    const tasks = await store.getTasks!();
    expect(tasks.map((t) => t.status)).toEqual(["completed"]);
    const [question] = (await glove.branches()).messages;
    await glove.editMessage(question!.id!, "never mind");
    expect(await store.getTasks!()).toEqual(tasks);
  });
});
