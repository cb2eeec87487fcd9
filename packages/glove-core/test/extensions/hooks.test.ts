import { describe, expect, it } from "vitest";
import { ExtensionError, parseTokens, type Message } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { makeGlove } from "../support/make-glove.js";

describe("parseTokens", () => {
  it("finds /name directives only at word starts followed by whitespace or the end", () => {
    const names = (t: string) => parseTokens(t).map((x) => x.name);
    expect(names("/compact what's next? /stop")).toEqual(["compact", "stop"]);
    expect(names("see /usr/local/bin and https://x.io/a and a@b.com and @reviewer")).toEqual([]);
    expect(names("ping /me at 3pm")).toEqual(["me"]);
    expect(names("x/notatoken /1bad /ok-name_2")).toEqual(["ok-name_2"]);
  });
});

describe("hooks", () => {
  it("bind only registered names; unbound tokens, paths, @mentions and e-mails reach the model verbatim", async () => {
    const { glove, model } = makeGlove([{ text: "ok" }]);
    glove.defineHook("noop", async () => {});
    const typed = "ping /me at 3pm, see /usr/local/bin, ask @reviewer or a@b.com";
    await glove.processRequest(typed);
    expect(model.requests[0]!.messages.at(-1)!.text).toBe(typed);
  });

  it("run in token order with parsedText, placeholders in the stored message, pre_modified_text kept", async () => {
    const { glove, store, model, events } = makeGlove([{ text: "ok" }]);
    const seen: Array<{ name: string; rawText: string; parsedText: string }> = [];
    glove
      .defineHook("first", async ({ name, rawText, parsedText }) => {
        seen.push({ name, rawText, parsedText });
      })
      .defineHook("second", async ({ name, rawText, parsedText }) => {
        seen.push({ name, rawText, parsedText });
      });
    await glove.processRequest("/second hello /first world");
    expect(seen.map((s) => s.name)).toEqual(["second", "first"]);
    expect(seen[0]).toEqual({ name: "second", rawText: "/second hello /first world", parsedText: "hello world" });
    const user = (await store.getMessages())[0]!;
    expect(user.text).toBe("[invoked_extension__hook_second] hello [invoked_extension__hook_first] world");
    expect(user.pre_modified_text).toBe("/second hello /first world");
    expect(model.requests[0]!.messages[0]!.text).toBe(user.text);
    expect(events.ofType("hook_invoked").map((e) => e.name)).toEqual(["second", "first"]);
  });

  it("rewriteText feeds later hooks and becomes the stored message", async () => {
    const { glove, store } = makeGlove([{ text: "ok" }]);
    const seenBySecond: string[] = [];
    glove
      .defineHook("formal", async ({ parsedText }) => ({ rewriteText: parsedText.replace(/\bgonna\b/g, "going to") }))
      .defineHook("check", async ({ parsedText }) => {
        seenBySecond.push(parsedText);
      });
    await glove.processRequest("/formal I'm gonna go /check");
    expect(seenBySecond).toEqual(["I'm going to go"]);
    const user = (await store.getMessages())[0]!;
    expect(user.text).toBe("[invoked_extension__hook_formal] [invoked_extension__hook_check] I'm going to go");
    expect(user.pre_modified_text).toBe("/formal I'm gonna go /check");
  });

  it("shortCircuit persists the user message and returns without calling the model", async () => {
    const { glove, store, model } = makeGlove([{ text: "never" }]);
    const reply: Message = { sender: "agent", text: "Stopped." };
    glove.defineHook("stop", async () => ({ shortCircuit: { message: reply } }));
    const result = await glove.processRequest("/stop everything");
    // The hook's message, with the request's usage (no model call), on a copy.
    const noCalls = { tokens_in: 0, tokens_out: 0, model_calls: 0 };
    expect(result).toEqual({ ...reply, usage: noCalls });
    expect(reply).not.toHaveProperty("usage");
    expect(model.requests).toHaveLength(0);
    expect((await store.getMessages()).map((m) => m.text)).toEqual(["[invoked_extension__hook_stop] everything"]);
    const canned = { messages: [reply], tokens_in: 0, tokens_out: 0 };
    glove.defineHook("canned", async () => ({ shortCircuit: { result: canned } }));
    expect(await glove.processRequest("/canned")).toEqual({ ...canned, text: "Stopped.", usage: noCalls });
  });

  it("controls expose the internals: forceCompaction and setModel mid-conversation", async () => {
    const { glove, store, events } = makeGlove([{ text: "first" }, { text: "a summary" }]);
    const stronger = new ScriptedModel([{ text: "from the stronger model" }]);
    glove
      .defineHook("compact", async ({ controls }) => {
        expect(controls.glove).toBe(glove);
        expect(controls.context.store).toBe(store);
        expect(controls.executor.tools.length).toBeGreaterThan(0);
        await controls.forceCompaction();
      })
      .defineHook("opus", ({ controls }) => {
        controls.glove.setModel(stronger);
      });
    await glove.processRequest("hi");
    await glove.processRequest("/compact /opus what's next?");
    expect(events.types()).toContain("compaction_end");
    expect((await store.getMessages()).some((m) => m.is_compaction && m.text.includes("a summary"))).toBe(true);
    expect(stronger.requests).toHaveLength(1);
    // After compaction the model sees the summary and the new message only.
    expect(stronger.requests[0]!.messages[0]!.is_compaction).toBe(true);
  });

  it("a throwing hook fails with ExtensionError naming it and stores nothing", async () => {
    const { glove, store, model } = makeGlove([{ text: "never" }]);
    glove.defineHook("broken", async () => {
      throw new Error("database offline");
    });
    const error = await glove.processRequest("/broken go").catch((e: unknown) => e);
    expect(ExtensionError.isInstance(error)).toBe(true);
    expect((error as ExtensionError).extensionName).toBe("broken");
    expect((error as ExtensionError).kind).toBe("hook");
    expect((error as Error).message).toMatch(/hook "broken" failed: database offline/);
    expect(await store.getMessages()).toEqual([]);
    expect(model.requests).toHaveLength(0);
  });

  it("defineHook is chainable and legal after build; hooks get the abort signal", async () => {
    const { glove } = makeGlove([{ text: "ok" }]);
    let signal: AbortSignal | undefined;
    const returned = glove.defineHook("sig", async (ctx) => {
      signal = ctx.signal;
    });
    expect(returned).toBe(glove);
    const controller = new AbortController();
    await glove.processRequest("/sig", controller.signal);
    expect(signal).toBe(controller.signal);
  });
});
