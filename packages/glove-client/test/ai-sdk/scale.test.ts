/**
 * The transport on glove-server's scale mode (PostgreSQL + Redis, two instances in this process):
 * it speaks the native routes, so a reply started through one instance is answered, resumed and
 * stopped through the other exactly as on one server.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { UIMessage, UIMessageChunk } from "ai";
import type { PromptRequest } from "glove-core";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";
import type { AgentFactory } from "glove-server";
import { GloveChatTransport } from "glove-client/ai-sdk";
import { foldChunks } from "../../src/ai-sdk/ui-messages.js";
import { readAll, user } from "../support/ui-chat.js";
import { inProcessScaleEnv, scaledServer, testGlove } from "../../../glove-server/test/scale/support/in-process.js";
import { deleteFile, slowJob } from "../support/tools.js";

const env = inProcessScaleEnv("aisdk");
const servers: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** Read from the history, so whichever instance runs the turn plays it the same way. */
function play(request: PromptRequest): ScriptedTurn {
  const last = request.messages.at(-1);
  if (last?.tool_results?.length) return { text: "Done there." };
  if (last?.text.includes("slow")) return { text: "Working.", toolCalls: [{ name: "slow_job", input: {} }] };
  return { toolCalls: [{ name: "delete_file", input: { path: "/tmp/s" } }] };
}

const agent: AgentFactory = ({ store }) =>
  testGlove(store, new ScriptedModel([], { delayMs: 2, fallback: play }))
    .fold(deleteFile)
    .fold(slowJob);

async function instances() {
  const started = await Promise.all(
    [0, 1].map(async () => {
      const server = scaledServer(env, agent);
      servers.push(server);
      return new GloveChatTransport({ server: (await server.listen()).url });
    }),
  );
  return started as [GloveChatTransport, GloveChatTransport];
}

const send = (transport: GloveChatTransport, chatId: string, messages: UIMessage[], abortSignal?: AbortSignal) =>
  transport.sendMessages({ trigger: "submit-message", chatId, messageId: undefined, messages, abortSignal });

describe("GloveChatTransport on the scale mode", () => {
  it("an approval asked through one instance is answered through the other; one result is stored", async () => {
    const [a, b] = await instances();
    const id = await a.createChat();
    const first = (await foldChunks(await readAll(await send(a, id, [user("u1", "delete it")]))))!;
    const part = first.parts.find((p) => p.type === "tool-delete_file");
    expect(part).toMatchObject({ state: "approval-requested" });
    const approved = {
      ...first,
      parts: first.parts.map((p) =>
        p === part
          ? { ...p, state: "approval-responded", approval: { ...(p as { approval: object }).approval, approved: true } }
          : p,
      ),
    } as UIMessage;
    const rest = await readAll(await send(b, id, [user("u1", "delete it"), approved]));
    expect(rest).toContainEqual(expect.objectContaining({ type: "tool-output-available", output: "deleted /tmp/s" }));
    const loaded = await a.loadMessages(id);
    expect(loaded[1]!.parts.filter((p) => p.type === "tool-delete_file")).toEqual([
      expect.objectContaining({ state: "output-available" }),
    ]);
    expect(loaded[1]!.parts.some((p) => p.type === "text" && p.text === "Done there.")).toBe(true);
  });

  it("a reply running on one instance is resumed through the other and stopped there", async () => {
    const [a, b] = await instances();
    const id = await a.createChat();
    const live = (await send(a, id, [user("u1", "slow please")])).getReader();
    while ((await live.read()).value?.type !== "tool-input-available");
    const controller = new AbortController();
    const resumed = (await b.reconnectToStream({ chatId: id, abortSignal: controller.signal }))!.getReader();
    const replay: UIMessageChunk[] = [];
    while (replay.at(-1)?.type !== "tool-input-available") replay.push((await resumed.read()).value!);
    expect(
      replay
        .filter((c) => c.type === "text-delta")
        .map((c) => (c as { delta: string }).delta)
        .join(""),
    ).toBe("Working.");
    controller.abort(); // useChat's stop() on the page that resumed
    const rest: UIMessageChunk[] = [];
    for (let next = await live.read(); !next.done; next = await live.read()) rest.push(next.value);
    expect(rest.map((c) => c.type)).toEqual(["tool-output-error", "finish-step", "abort"]);
  });
});
