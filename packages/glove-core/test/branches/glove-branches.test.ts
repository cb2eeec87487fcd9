import { describe, expect, it } from "vitest";
import { BranchError, MemoryStore, type Message } from "glove-core";
import { makeGlove } from "../support/make-glove.js";

const texts = (messages: Message[]) => messages.map((m) => `${m.sender}:${m.text}`);

describe("Glove regenerate, edit and switch (decision 0025)", () => {
  it("regenerate keeps the old answer as a sibling; the model sees only the active branch", async () => {
    const { glove, model } = makeGlove([{ text: "first answer" }, { text: "second answer" }]);
    await glove.processRequest("hello");
    const answer = await glove.regenerate();
    expect(answer.text).toBe("second answer");
    // The regenerated call saw the user message and not the answer it replaces.
    expect(model.requests[1]!.messages.map((m) => m.text)).toEqual(["hello"]);
    const info = await glove.branches();
    expect(texts(info.messages)).toEqual(["user:hello", "agent:second answer"]);
    expect(info.points).toHaveLength(1);
    const [point] = info.points;
    expect(point!.index).toBe(1);
    expect(point!.siblings.map((s) => s.text)).toEqual(["first answer", "second answer"]);
    expect(point!.active).toBe(1);

    const switched = await glove.switchBranch(point!.siblings[0]!.id);
    expect(texts(switched.messages)).toEqual(["user:hello", "agent:first answer"]);
    expect(switched.points[0]!.active).toBe(0);
  });

  it("edit replaces a user message and continues; what followed stays on its branch and comes back whole", async () => {
    const { glove, model } = makeGlove([{ text: "a1" }, { text: "a2" }, { text: "b1" }]);
    await glove.processRequest("q1");
    await glove.processRequest("q2");
    const before = await glove.branches();
    const q1 = before.messages[0]!;
    await glove.editMessage(q1.id!, "q1 edited");
    expect(model.requests.at(-1)!.messages.map((m) => m.text)).toEqual(["q1 edited"]);
    const after = await glove.branches();
    expect(texts(after.messages)).toEqual(["user:q1 edited", "agent:b1"]);
    expect(after.points[0]!.siblings.map((s) => s.text)).toEqual(["q1", "q1 edited"]);
    const back = await glove.switchBranch(q1.id!);
    expect(texts(back.messages)).toEqual(["user:q1", "agent:a1", "user:q2", "agent:a2"]);
  });

  it("refuses ids that are not on the active branch, agent messages, and work while a request runs", async () => {
    const { glove } = makeGlove([{ text: "a1" }]);
    await glove.processRequest("q1");
    const [, a1] = (await glove.branches()).messages;
    await expect(glove.editMessage("msg_nope", "x")).rejects.toSatisfy(
      (e) => BranchError.isInstance(e) && e.reason === "not_found",
    );
    await expect(glove.editMessage(a1!.id!, "x")).rejects.toSatisfy(
      (e) => BranchError.isInstance(e) && e.reason === "invalid",
    );
    await expect(glove.switchBranch("msg_nope")).rejects.toSatisfy(
      (e) => BranchError.isInstance(e) && e.reason === "not_found",
    );
  });

  it("a Glove whose view is cached sees another Glove's switch to a branch of the same length", async () => {
    const store = new MemoryStore("shared");
    const one = makeGlove([{ text: "a1" }, { text: "after" }], { store });
    await one.glove.processRequest("q");
    const two = makeGlove([{ text: "a2" }], { store });
    await two.glove.regenerate();
    // Same length as before (question, answer): only the last message differs.
    await one.glove.processRequest("next");
    expect(one.model.requests.at(-1)!.messages.map((m) => m.text)).toEqual(["q", "a2", "next"]);
  });

  it("of two Gloves editing one store at once, exactly one wins", async () => {
    const store = new MemoryStore("race");
    const one = makeGlove([{ text: "a1" }, { text: "from one" }], { store });
    await one.glove.processRequest("q1");
    const two = makeGlove([{ text: "from two" }], { store });
    const id = (await one.glove.branches()).messages[0]!.id!;
    const results = await Promise.allSettled([one.glove.editMessage(id, "one"), two.glove.editMessage(id, "two")]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(BranchError.isInstance(lost.reason) && lost.reason.reason).toBe("conflict");
  });
});
