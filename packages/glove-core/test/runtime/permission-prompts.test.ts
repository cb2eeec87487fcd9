import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ConfigurationError,
  Displaymanager,
  Glove,
  MemoryStore,
  PERMISSION_REQUEST_RENDERER,
  type GloveConfig,
} from "glove-core";
import { RecordingSubscriber, ScriptedModel } from "glove-core/testing";

/** A real Glove whose model calls one gated tool, with no UI listening to its display manager. */
function unwatchedGlove(config: Partial<GloveConfig> = {}) {
  let runs = 0;
  const store = new MemoryStore("prompts");
  const events = new RecordingSubscriber();
  const glove = new Glove({
    store,
    model: new ScriptedModel([
      { toolCalls: [{ name: "wipe_disk", input: { disk: "sda" }, id: "call-1" }] },
      { text: "done" },
    ]),
    displayManager: new Displaymanager(),
    systemPrompt: "You manage disks.",
    compaction_config: { compaction_instructions: "Summarise." },
    ...config,
  })
    .fold({
      name: "wipe_disk",
      description: "Erases a disk.",
      requiresPermission: true,
      async do() {
        runs++;
        return "wiped";
      },
    })
    .addSubscriber(events)
    .build();
  const result = async () => (await store.getMessages()).flatMap((m) => m.tool_results ?? [])[0]?.result;
  return { glove, events, result, runs: () => runs };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a permission prompt nobody shows (decision 19)", () => {
  it("says which tool waits and how to answer it; answering through the display manager completes the turn", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const t = unwatchedGlove();
    const turn = t.glove.processRequest("Wipe sda");

    await vi.waitFor(() => expect(t.events.ofType("permission_waiting")).toHaveLength(1), { timeout: 60_000 });
    const [waiting] = t.events.ofType("permission_waiting");
    const slot = t.glove.displayManager.stack.find((s) => s.renderer === PERMISSION_REQUEST_RENDERER)!;
    expect(waiting).toMatchObject({ tool_name: "wipe_disk", call_id: "call-1", slot_id: slot.id });
    expect(waiting!.message).toContain(`glove.displayManager.resolve("${slot.id}", true)`);
    expect(waiting!.message).toMatch(/permissionPolicy/);
    expect(warn).toHaveBeenCalledOnce();
    expect(String(warn.mock.calls[0]![0])).toContain(waiting!.message);
    expect(t.runs()).toBe(0); // waiting, not refused: the answer may still come

    t.glove.displayManager.resolve(waiting!.slot_id!, true);
    await turn;
    expect(t.runs()).toBe(1);
    expect((await t.result())?.status).toBe("success");
  });

  it("stays quiet when a UI subscribes to the display manager", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const t = unwatchedGlove();
    t.glove.displayManager.subscribe((stack) => {
      const slot = stack.find((s) => s.renderer === PERMISSION_REQUEST_RENDERER);
      if (slot) t.glove.displayManager.resolve(slot.id, false);
    });
    await t.glove.processRequest("Wipe sda");
    expect(t.events.ofType("permission_waiting")).toHaveLength(0);
    expect(warn).not.toHaveBeenCalled();
    expect((await t.result())?.message).toMatch(/declined/);
  });

  it("permissionTimeoutMs refuses an unanswered prompt and takes the slot down", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const t = unwatchedGlove({ permissionTimeoutMs: 30 });
    await t.glove.processRequest("Wipe sda");
    expect(t.runs()).toBe(0);
    const result = await t.result();
    expect(result?.status).toBe("error");
    expect(result?.message).toMatch(/Nobody answered the permission prompt for "wipe_disk" within 30 ms/);
    expect(t.glove.displayManager.stack).toHaveLength(0);
    expect(t.glove.displayManager.resolverStore.size).toBe(0);
  });

  it("an answer before permissionTimeoutMs wins", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const t = unwatchedGlove({ permissionTimeoutMs: 5_000 });
    const turn = t.glove.processRequest("Wipe sda");
    await vi.waitFor(() => expect(t.events.ofType("permission_waiting")).toHaveLength(1), { timeout: 60_000 });
    t.glove.displayManager.resolve(t.events.ofType("permission_waiting")[0]!.slot_id!, true);
    await turn;
    expect(t.runs()).toBe(1);
  });

  it("rejects a permissionTimeoutMs that is not a positive number", () => {
    for (const permissionTimeoutMs of [0, -5, Number.NaN]) {
      expect(() => unwatchedGlove({ permissionTimeoutMs })).toThrow(ConfigurationError);
    }
    expect(() => unwatchedGlove({ permissionTimeoutMs: 0 })).toThrow(/permissionTimeoutMs must be a positive number/);
  });
});

describe("serverModeWithoutPolicy", () => {
  function serverGlove(config: Partial<GloveConfig>) {
    let runs = 0;
    const store = new MemoryStore("server");
    const glove = new Glove({
      store,
      model: new ScriptedModel([{ toolCalls: [{ name: "restart", input: {} }] }, { text: "done" }]),
      displayManager: new Displaymanager(),
      systemPrompt: "You run services.",
      compaction_config: { compaction_instructions: "Summarise." },
      serverMode: true,
      ...config,
    })
      .fold({
        name: "restart",
        description: "Restarts the service.",
        requiresPermission: true,
        serverModeWithoutPolicy: "allow",
        async do() {
          runs++;
          return "restarted";
        },
      })
      .build();
    return { glove, runs: () => runs };
  }

  it('"allow" runs the tool in a serverMode Glove without a policy', async () => {
    const t = serverGlove({});
    await t.glove.processRequest("Restart");
    expect(t.runs()).toBe(1);
  });

  it("a policy still decides for it", async () => {
    const asked: string[] = [];
    const t = serverGlove({
      permissionPolicy: (name) => {
        asked.push(name);
        return "denied";
      },
    });
    await t.glove.processRequest("Restart");
    expect(asked).toEqual(["restart"]);
    expect(t.runs()).toBe(0);
  });
});
