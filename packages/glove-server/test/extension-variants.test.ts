/**
 * Agent variants declared by an extension (Glove Studio's forks): a conversation of a variant runs
 * its agent's factory with the override; names are refused when they clash; `turns` creates
 * conversations of the caller's within the same checks as the routes.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError, Displaymanager, Glove } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { createGloveServer, memoryStorage, type ServerExtension } from "glove-server";
import { authenticate } from "./support/harness.js";

const agents = {
  a: () =>
    new Glove({
      model: new ScriptedModel([], { fallback: () => ({ text: "base" }) }),
      displayManager: new Displaymanager(),
      systemPrompt: "base prompt",
      compaction_config: { compaction_instructions: "" },
    }),
};

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** Creates a conversation of the caller's with the agent named in the path, then sends "hi" as the caller would. */
const creator: ServerExtension = {
  path: "make",
  agentVariants: {
    "a-variant": { agent: "a", override: { model: new ScriptedModel([], { fallback: () => ({ text: "variant" }) }) } },
  },
  async handle(context) {
    const record = await context.turns.createConversation(context.segments[0] ?? "");
    const handle = await context.host.open(record, context.principal);
    await context.turns.admitTurn(handle, () => handle.startTurn(context.turns.messageText({ text: "hi" }), undefined));
    return Response.json({ id: record.id, owner: record.owner, agent: record.agent });
  },
};

describe("extension agent variants", () => {
  it("run the agent's factory with the override, in a conversation owned by the caller", async () => {
    const server = createGloveServer({ agents, authenticate, store: memoryStorage(), extensions: [creator] });
    const { url } = await server.listen();
    close = () => server.close();
    const call = (path: string, init: RequestInit = {}) =>
      fetch(url + path, { ...init, headers: { authorization: "Bearer carol", "content-type": "application/json" } });
    for (const [agent, answer] of [
      ["a", "base"],
      ["a-variant", "variant"],
    ] as const) {
      const made = (await (await call(`/make/${agent}`)).json()) as { id: string; owner: string; agent: string };
      expect(made).toMatchObject({ owner: "carol", agent });
      let messages: Array<{ text: string }> = [];
      for (let i = 0; i < 200 && messages.length < 2; i++) {
        messages = ((await (await call(`/conversations/${made.id}`)).json()) as { messages: typeof messages }).messages;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(messages.map((m) => m.text)).toEqual(["hi", answer]);
    }
    // Clients cannot create a variant's conversation themselves; an unknown name is a 400 either way.
    expect(
      (await call("/conversations", { method: "POST", body: JSON.stringify({ agent: "a-variant" }) })).status,
    ).toBe(400);
    expect((await call("/make/nope")).status).toBe(400);
  });

  it("refuses variants named like an agent, named twice, or of an unknown agent", () => {
    const extension = (path: string, name: string, agent: string): ServerExtension => ({
      path,
      agentVariants: { [name]: { agent, override: {} } },
      handle: async () => new Response(null),
    });
    const make = (extensions: ServerExtension[]) =>
      createGloveServer({ agents, authenticate, store: memoryStorage(), extensions });
    expect(() => make([extension("x", "a", "a")])).toThrow(ConfigurationError);
    expect(() => make([extension("x", "v", "nope")])).toThrow(ConfigurationError);
    expect(() => make([extension("x", "v", "a"), extension("y", "v", "a")])).toThrow(ConfigurationError);
  });
});
