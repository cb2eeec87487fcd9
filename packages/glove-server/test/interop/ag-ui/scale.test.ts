/**
 * The AG-UI route in the scale mode (PostgreSQL + Redis, two instances): a run started on one
 * instance streams its turn from whichever instance runs it, a question ends it as an interrupt,
 * and the resume posted to the other instance answers it there and streams the rest of the turn.
 */
import { afterAll, describe, expect, it } from "vitest";
import { HttpAgent } from "@ag-ui/client";
import { ScriptedModel } from "glove-core/testing";
import type { GloveServer } from "glove-server";
import { historyOf, inProcessScaleEnv, scaledServer, testGlove } from "../../scale/support/in-process.js";
import { expectValidHistory } from "../../suite/server-suite.js";
import { runOnce, say, streamedText } from "./support/ag-ui-client.js";
import { deleteFile } from "./support/ag-ui-server.js";

const env = inProcessScaleEnv("agui");
const servers: GloveServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

describe("AG-UI in the scale mode", () => {
  it("an interrupt raised on one instance is resumed through another", async () => {
    const script = [
      { text: "Deleting.", toolCalls: [{ name: "delete_file", input: { path: "/tmp/s" }, id: "del-s" }] },
      { text: "Gone." },
    ];
    const agent =
      () =>
      ({ store }: { store: Parameters<typeof testGlove>[0] }) =>
        testGlove(
          store,
          new ScriptedModel([], { delayMs: 2, fallback: () => script.shift() ?? { text: "(no more script)" } }),
        ).fold(deleteFile);
    const [a, b] = [scaledServer(env, agent()), scaledServer(env, agent())];
    servers.push(a, b);
    const urlA = (await a.listen()).url;
    const urlB = (await b.listen()).url;

    const onA = new HttpAgent({ url: `${urlA}/ag-ui` });
    const asked = await say(onA, "Delete /tmp/s");
    expect(asked.error).toBeUndefined();
    expect(streamedText(asked)).toBe("Deleting.");
    expect(asked.outcome).toBe("interrupt");
    expect(asked.interrupts[0]).toMatchObject({ reason: "tool_call", toolCallId: "del-s" });

    // The same thread through the other instance: the page's next run goes wherever the balancer sends it.
    const onB = new HttpAgent({
      url: `${urlB}/ag-ui`,
      threadId: onA.threadId,
      initialMessages: structuredClone(onA.messages),
    });
    const resumed = await runOnce(onB, {
      resume: [{ interruptId: asked.interrupts[0]!.id, status: "resolved", payload: { approved: true } }],
    });
    expect(resumed.error).toBeUndefined();
    expect(resumed.outcome).toBe("success");
    expect(resumed.events.find((e) => e.type === "TOOL_CALL_RESULT")).toMatchObject({
      toolCallId: "del-s",
      content: "deleted /tmp/s",
    });
    expect(streamedText(resumed)).toBe("Gone.");
    const history = await historyOf(urlA, onA.threadId);
    expectValidHistory(history);
    expect(history.at(-1)?.text).toBe("Gone.");
  });
});
