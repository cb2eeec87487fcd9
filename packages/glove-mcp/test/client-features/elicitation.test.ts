import { describe, expect, it } from "vitest";
import {
  MCP_APPS_EXTENSION,
  MCP_ELICITATION_RENDERER,
  type McpElicitationAnswer,
  type McpElicitationInput,
} from "glove-mcp";
import { featureServerFixture, type Mounted } from "./harness.js";

const server = featureServerFixture();

const bookTable = [{ toolCalls: [{ name: "feat__book_table", input: {}, id: "b1" }] }, { text: "done" }];

async function bookingResult(m: Mounted): Promise<{ status: string; data: unknown }> {
  await m.glove.processRequest("Book a table.");
  const result = (await m.results()).find((r) => r.tool_name === "feat__book_table");
  return { status: result!.result.status, data: result!.result.data };
}

describe("elicitation through the display stack (mounted entry, during a tool call)", () => {
  it("pushes an mcp_elicitation slot; checkAnswer keeps it waiting, an invalid answer re-asks with the issues, a valid one reaches the server", async () => {
    const mounted = await server.mount({ serverMode: false, clientFeatures: { elicitation: true }, steps: bookTable });
    const m = mounted;
    const inputs: McpElicitationInput[] = [];
    let checked: ReturnType<NonNullable<typeof m.dm.checkAnswer>> | undefined;
    let stillPending = false;
    m.onSlots(MCP_ELICITATION_RENDERER, (slot) => {
      const input = slot.input as McpElicitationInput;
      inputs.push(input);
      if (inputs.length === 1) {
        const bad = { action: "accept", content: { name: "", guests: 40 } };
        checked = m.dm.checkAnswer!(slot.id, bad);
        stillPending = m.dm.stack.some((s) => s.id === slot.id);
        m.dm.resolve(slot.id, bad); // resolved anyway: the request is asked again
      } else {
        m.dm.resolve(slot.id, { action: "accept", content: { name: "Ada", guests: 2 } });
      }
    });
    const result = await bookingResult(m);

    expect(inputs[0]).toMatchObject({ serverId: "feat", message: "Who is the booking for?" });
    expect(inputs[0]!.requestedSchema.required).toEqual(["name", "guests"]);
    expect(checked).toMatchObject({ ok: false, reason: "invalid" });
    const paths = checked && !checked.ok && checked.reason === "invalid" ? checked.issues.map((i) => i.path) : [];
    expect(paths).toEqual(expect.arrayContaining(["content.name", "content.guests"]));
    expect(stillPending).toBe(true);
    expect(inputs).toHaveLength(2);
    expect(inputs[1]!.issues?.map((i) => i.path)).toEqual(expect.arrayContaining(["content.name", "content.guests"]));
    // The omitted field got the schema's default before the server saw the answer.
    expect(result).toEqual({ status: "success", data: "booked for Ada, 2 guests, vegetarian=false" });
    expect(m.dm.stack).toEqual([]);
  });

  it("decline and a dismissed slot (cancel) reach the server as such", async () => {
    const mounted = await server.mount({
      serverMode: false,
      clientFeatures: { elicitation: true },
      steps: [
        ...bookTable.slice(0, 1),
        { toolCalls: [{ name: "feat__book_table", input: {}, id: "b2" }] },
        { text: "done" },
      ],
    });
    const m = mounted;
    let n = 0;
    m.onSlots(MCP_ELICITATION_RENDERER, (slot) => {
      if (n++ === 0) m.dm.resolve(slot.id, { action: "decline" });
      else m.dm.reject(slot.id, new Error("closed by the user"));
    });
    await m.glove.processRequest("Book twice.");
    expect((await m.results()).map((r) => r.result.data)).toEqual(["no booking: decline", "no booking: cancel"]);
  });

  it("declines after maxInvalidAnswers invalid answers", async () => {
    const mounted = await server.mount({
      serverMode: false,
      clientFeatures: { elicitation: { maxInvalidAnswers: 1 } },
      steps: bookTable,
    });
    const m = mounted;
    let slots = 0;
    m.onSlots(MCP_ELICITATION_RENDERER, (slot) => {
      slots++;
      m.dm.resolve(slot.id, { action: "accept", content: { name: "Ada", guests: 2, extra: "not asked for" } });
    });
    expect(await bookingResult(m)).toEqual({ status: "success", data: "no booking: decline" });
    expect(slots).toBe(2);
  });

  it("a request the server gives up on (timeout → notifications/cancelled) takes its slot off the stack, even with request id 0", async () => {
    const mounted = await server.mount({
      serverMode: false,
      clientFeatures: { elicitation: true },
      steps: [{ toolCalls: [{ name: "feat__quick_form", input: {}, id: "q" }] }, { text: "done" }],
    });
    const m = mounted;
    const pushed: string[] = [];
    m.onSlots(MCP_ELICITATION_RENDERER, (slot) => pushed.push(slot.id)); // nobody answers
    await m.glove.processRequest("Ask quickly.");
    const [result] = await m.results();
    expect(result!.result.status).toBe("error");
    expect(result!.result.message).toMatch(/elicitation failed: .*timed out/i);
    expect(pushed).toHaveLength(1);
    await expect.poll(() => m.dm.stack.map((s) => s.id)).toEqual([]);
  });

  it("serverMode: declines by default, without pushing a slot", async () => {
    const mounted = await server.mount({ serverMode: true, clientFeatures: { elicitation: true }, steps: bookTable });
    let pushed = 0;
    mounted.onSlots(MCP_ELICITATION_RENDERER, () => pushed++);
    expect(await bookingResult(mounted)).toEqual({ status: "success", data: "no booking: decline" });
    expect(pushed).toBe(0);
  });

  it("serverMode: a policy answers; its answer is validated too (invalid → decline)", async () => {
    const seen: McpElicitationInput[] = [];
    const mounted = await server.mount({
      serverMode: true,
      clientFeatures: {
        elicitation: {
          policy: (request): McpElicitationAnswer => {
            seen.push(request);
            return seen.length === 1
              ? { action: "accept", content: { name: "Bot", guests: 1, vegetarian: true } }
              : { action: "accept", content: { guests: 0 } };
          },
        },
      },
      steps: [
        ...bookTable.slice(0, 1),
        { toolCalls: [{ name: "feat__book_table", input: {}, id: "b2" }] },
        { text: "done" },
      ],
    });
    await mounted.glove.processRequest("Book twice.");
    expect((await mounted.results()).map((r) => r.result.data)).toEqual([
      "booked for Bot, 1 guests, vegetarian=true",
      "no booking: decline",
    ]);
    expect(seen[0]!.serverId).toBe("feat");
  });
});

describe("declared client capabilities", () => {
  it("declares nothing without client features but the MCP Apps extension, and exactly what is configured with them", async () => {
    const before = server.log.capabilities.length;
    let mounted = await server.mount({ serverMode: true });
    await mounted.mount.unmount();
    mounted = await server.mount({ serverMode: true, clientFeatures: { elicitation: true } });
    await mounted.mount.unmount();
    mounted = await server.mount({ serverMode: true, clientFeatures: { sampling: true, roots: [] } });
    const [none, elicitation, samplingAndRoots] = server.log.capabilities.slice(before);
    const apps = { extensions: MCP_APPS_EXTENSION };
    expect(none).toEqual(apps);
    expect(elicitation).toEqual({ ...apps, elicitation: { form: {} } });
    expect(samplingAndRoots).toEqual({ ...apps, sampling: {}, roots: { listChanged: true } });
  });
});
