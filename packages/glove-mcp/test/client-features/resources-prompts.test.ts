import { afterEach, describe, expect, it } from "vitest";
import { Displaymanager, SKILL_INVOKE_TOOL_NAME } from "glove-core";
import { ScriptedModel, type ScriptedStep } from "glove-core/testing";
import { gloveClientFeatures, mountMcp, parsePromptArguments, type McpCatalogueEntry, type McpMount } from "glove-mcp";
import { TestAdapter } from "../support/adapter.js";
import { scriptedGlove } from "../support/scripted-glove.js";
import { minimalEnv, serverScript } from "../support/servers.js";

// The published server-everything over stdio: it has resources, resource templates and prompts.
const entry: McpCatalogueEntry = {
  id: "everything",
  name: "Everything",
  description: "reference server",
  url: "stdio://everything",
  stdio: { command: process.execPath, args: [serverScript("server-everything"), "stdio"], env: minimalEnv() },
};

let mount: McpMount | undefined;
afterEach(async () => {
  await mount?.unmount();
  mount = undefined;
});

async function mounted(steps: ScriptedStep[], features = { resources: true, prompts: true }) {
  const { glove, model, store, results } = scriptedGlove(steps, { storeName: "extras" });
  const adapter = new TestAdapter();
  adapter.active.add("everything");
  mount = await mountMcp(glove, { adapter, entries: [entry], clientFeatures: features, log: () => undefined });
  expect(mount.failed).toEqual([]);
  return { glove, model, store, results };
}

describe("resources as tools (server-everything)", () => {
  it("lists resources and templates, reads text and binary resources, and refuses a call without a uri", async () => {
    const { glove, model, results } = await mounted([
      { toolCalls: [{ name: "everything__list_resources", input: {}, id: "l" }] },
      {
        toolCalls: [
          {
            name: "everything__read_resource",
            input: { uri: "demo://resource/static/document/architecture.md" },
            id: "t",
          },
          { name: "everything__read_resource", input: { uri: "demo://resource/dynamic/blob/3" }, id: "b" },
          { name: "everything__read_resource", input: {}, id: "x" },
        ],
      },
      { text: "done" },
    ]);
    await glove.processRequest("Look at the docs.");
    const [list, text, blob, missing] = await results();
    const listed = list!.result.data as {
      resources: Array<{ uri: string }>;
      templates: Array<{ uriTemplate: string }>;
    };
    expect(listed.resources.map((r) => r.uri)).toContain("demo://resource/static/document/architecture.md");
    expect(listed.templates.map((t) => t.uriTemplate)).toContain("demo://resource/dynamic/blob/{resourceId}");
    expect(text!.result.status).toBe("success");
    expect(String(text!.result.data).length).toBeGreaterThan(50);
    expect(blob!.result.data).toMatch(/^\[binary \S+ demo:\/\/resource\/dynamic\/blob\/3, \d+ bytes\]$/);
    expect(missing!.result).toMatchObject({ status: "error", message: expect.stringMatching(/uri/) });
    // The tools are offered to the model next to the bridged ones.
    expect(model.requests[0]!.tools!.map((t) => t.name)).toEqual(
      expect.arrayContaining(["everything__echo", "everything__list_resources", "everything__read_resource"]),
    );
  });

  it("without the option, no resource tools are added", async () => {
    const { glove, model } = await mounted([{ text: "hi" }], { resources: false, prompts: false });
    await glove.processRequest("hi");
    expect(model.requests[0]!.tools!.map((t) => t.name)).not.toContain("everything__read_resource");
  });

  it("unmount removes the resource tools from the running Glove", async () => {
    const { glove, model } = await mounted([{ text: "one" }, { text: "two" }]);
    await glove.processRequest("first");
    await mount!.unmount();
    mount = undefined;
    await glove.processRequest("second");
    expect(model.requests[0]!.tools!.map((t) => t.name)).toContain("everything__read_resource");
    expect((model.requests[1]!.tools ?? []).map((t) => t.name)).not.toContain("everything__read_resource");
  });
});

describe("prompts as skills (server-everything)", () => {
  it("/everything__args-prompt city=… injects the rendered prompt before the user's turn", async () => {
    const { glove, store } = await mounted([{ text: "Noted." }]);
    await glove.processRequest('/everything__args-prompt city="San Francisco" state=CA');
    const messages = await store.getMessages();
    const injected = messages.find((m) => m.is_skill_injection);
    expect(injected?.text).toMatch(/San Francisco/);
    expect(injected?.text).toMatch(/CA/);
  });

  it("the model invokes a prompt through glove_invoke_skill; a missing required argument is an error result", async () => {
    const { glove, results } = await mounted([
      {
        toolCalls: [
          { name: SKILL_INVOKE_TOOL_NAME, input: { name: "everything__simple-prompt" }, id: "s" },
          { name: SKILL_INVOKE_TOOL_NAME, input: { name: "everything__args-prompt", args: "state=CA" }, id: "m" },
        ],
      },
      { text: "done" },
    ]);
    await glove.processRequest("Use the prompts.");
    const [simple, missing] = await results();
    expect(simple!.result).toMatchObject({
      status: "success",
      data: { skill: "everything__simple-prompt", content: "This is a simple prompt without arguments." },
    });
    expect(missing!.result.status).toBe("error");
    expect(missing!.result.message).toMatch(/needs city/);
  });
});

describe("gloveClientFeatures host", () => {
  it("resources and prompts need the Glove itself (they add tools and skills)", () => {
    const bare = { displayManager: new Displaymanager(), model: new ScriptedModel([]), serverMode: true };
    expect(() => gloveClientFeatures(bare, { prompts: true })).toThrow(/needs the Glove itself as its host/);
    expect(() => gloveClientFeatures(bare, { elicitation: true, roots: [] })).not.toThrow();
  });
});

describe("parsePromptArguments", () => {
  const prompt = { arguments: [{ name: "city", required: true }, { name: "state" }] };
  it("reads JSON, name=value pairs (quoted or not), and a lone argument", () => {
    expect(parsePromptArguments('{"city":"Oslo","state":1}', prompt)).toEqual({ city: "Oslo", state: "1" });
    expect(parsePromptArguments("city='New York' state=NY", prompt)).toEqual({ city: "New York", state: "NY" });
    expect(parsePromptArguments("Lisbon", { arguments: [{ name: "city" }] })).toEqual({ city: "Lisbon" });
    expect(parsePromptArguments("  ", prompt)).toEqual({});
  });
});
