import { describe, expect, it } from "vitest";
import { PERMISSION_REQUEST_RENDERER, type PermissionRequestInput } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { samplingPermissionName, type McpSamplingRequest } from "glove-mcp";
import { featureServerFixture, type Mounted } from "./harness.js";

const server = featureServerFixture();

const summarize = { toolCalls: [{ name: "feat__summarize", input: {}, id: "s1" }] };

async function summaryResult(m: Mounted): Promise<{ status: string; data: unknown }> {
  await m.glove.processRequest("Summarise.");
  const result = (await m.results()).find((r) => r.tool_name === "feat__summarize")!;
  return {
    status: result.result.status,
    data: result.result.status === "success" ? result.result.data : result.result.message,
  };
}

describe("sampling through the Glove's model", () => {
  it("asks through the permission_request slot; granted → the Glove's model answers the server", async () => {
    // The Glove's one model plays the main turn, then the sampling call, then the final answer.
    const mounted = await server.mount({
      serverMode: false,
      clientFeatures: { sampling: true },
      steps: [summarize, { text: "Cat sat on mat." }, { text: "done" }],
    });
    const m = mounted;
    const asked: PermissionRequestInput[] = [];
    m.onSlots(PERMISSION_REQUEST_RENDERER, (slot) => {
      asked.push(slot.input as PermissionRequestInput);
      m.dm.resolve(slot.id, true);
    });
    expect(await summaryResult(m)).toEqual({ status: "success", data: "summary (scripted): Cat sat on mat." });
    expect(asked.map((a) => a.tool_name)).toEqual([samplingPermissionName("feat")]);
    const samplingCall = m.model.requests[1]!;
    expect(samplingCall.systemPrompt).toBe("You summarise in five words.");
    expect(samplingCall.messages).toEqual([{ sender: "user", text: "Summarise: the cat sat on the mat." }]);
    expect(samplingCall.tools ?? []).toEqual([]);
  });

  it("denied by the user → the server gets an error and the model is not called", async () => {
    const mounted = await server.mount({
      serverMode: false,
      clientFeatures: { sampling: true },
      steps: [summarize, { text: "done" }],
    });
    const m = mounted;
    m.onSlots(PERMISSION_REQUEST_RENDERER, (slot) => m.dm.resolve(slot.id, false));
    const result = await summaryResult(m);
    expect(result.status).toBe("error");
    expect(String(result.data)).toMatch(/sampling refused: .*declined the sampling request of "feat"/);
    expect(m.model.requests).toHaveLength(2); // main turn + final answer, no sampling call
  });

  it("a stored grant is used without asking", async () => {
    const mounted = await server.mount({
      serverMode: false,
      clientFeatures: { sampling: true },
      steps: [summarize, { text: "Short." }, { text: "done" }],
    });
    await mounted.store.setPermission(samplingPermissionName("feat"), "granted");
    let asked = 0;
    mounted.onSlots(PERMISSION_REQUEST_RENDERER, () => asked++);
    expect(await summaryResult(mounted)).toEqual({ status: "success", data: "summary (scripted): Short." });
    expect(asked).toBe(0);
  });

  it("serverMode: denied without a permission callback; a callback can allow, with its own model", async () => {
    let mounted = await server.mount({
      serverMode: true,
      clientFeatures: { sampling: true },
      steps: [summarize, { text: "done" }],
    });
    expect((await summaryResult(mounted)).status).toBe("error");
    await mounted.mount.unmount();

    const sampler = new ScriptedModel([{ text: "Five words, as asked." }], { name: "sampler" });
    const requests: McpSamplingRequest[] = [];
    mounted = await server.mount({
      serverMode: true,
      clientFeatures: {
        sampling: {
          model: sampler,
          permission: (request) => {
            requests.push(request);
            return request.params.maxTokens <= 100;
          },
        },
      },
      steps: [summarize, { text: "done" }],
    });
    expect(await summaryResult(mounted)).toEqual({
      status: "success",
      data: "summary (sampler): Five words, as asked.",
    });
    expect(requests.map((r) => [r.serverId, r.params.maxTokens])).toEqual([["feat", 50]]);
  });
});

describe("roots", () => {
  const listRoots = { toolCalls: [{ name: "feat__list_roots", input: {}, id: "r1" }] };

  it("offers the entry's roots, and setRoots sends roots/list_changed with the new list served after", async () => {
    const mounted = await server.mount({
      serverMode: true,
      clientFeatures: { roots: [{ uri: "file:///srv/default" }] },
      entry: { roots: [{ uri: "file:///srv/project", name: "project" }] },
      steps: [
        listRoots,
        { text: "ok" },
        { toolCalls: [{ name: "feat__list_roots", input: {}, id: "r2" }] },
        { text: "ok" },
      ],
    });
    const changedBefore = server.log.rootsChanged;
    await mounted.glove.processRequest("Which roots?");
    await mounted.mount.features!.setRoots("feat", [{ uri: "file:///srv/other" }]);
    await expect.poll(() => server.log.rootsChanged).toBe(changedBefore + 1);
    await mounted.glove.processRequest("And now?");
    const data = (await mounted.results()).map((r) => JSON.parse(String(r.result.data)) as unknown);
    expect(data).toEqual([[{ uri: "file:///srv/project", name: "project" }], [{ uri: "file:///srv/other" }]]);
  });

  it("without roots configured, the server's roots/list is refused (capability not declared)", async () => {
    const mounted = await server.mount({
      serverMode: true,
      clientFeatures: { elicitation: true },
      steps: [listRoots, { text: "ok" }],
    });
    await mounted.glove.processRequest("Which roots?");
    const [result] = await mounted.results();
    expect(result!.result.status).toBe("error");
    expect(result!.result.message).toMatch(/roots failed/);
  });
});
