/**
 * The per-principal quotas in the scale mode: the stored-conversation count is shared (the
 * catalog is), running turns are counted by the instance that accepted them until the turn ends
 * on whichever instance ran it.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createGloveServer, type GloveServer } from "glove-server";
import { postgresStorage } from "glove-server/postgres";
import { authenticate, testAgent, type AgentKit } from "../support/harness.js";
import { acceptedSoon } from "../support/polling.js";
import { inProcessScaleEnv, scaleMode } from "./support/in-process.js";

const env = inProcessScaleEnv("quota");
const servers: GloveServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

const slowTurn = { toolCalls: [{ name: "slow_tool", input: {} }] };

interface Answer {
  status: number;
  body: { id?: string; error?: { code: string } };
}

async function instance(kit: AgentKit): Promise<(path: string, body?: unknown) => Promise<Answer>> {
  const server = createGloveServer({
    authenticate,
    store: postgresStorage({ pool: env.pool, schema: env.schema }),
    scale: scaleMode(env.prefix, 2000),
    agents: { assistant: testAgent(kit) },
    limits: { conversationsPerPrincipal: 3, concurrentTurnsPerPrincipal: 1 },
  });
  servers.push(server);
  const { url } = await server.listen();
  return async (path, body) => {
    const headers = { authorization: "Bearer ada", "content-type": "application/json" };
    const response = await fetch(
      url + path,
      body === undefined ? { headers } : { method: "POST", headers, body: JSON.stringify(body) },
    );
    return { status: response.status, body: (await response.json()) as Answer["body"] };
  };
}

describe("quotas in the scale mode", () => {
  it("counts stored conversations over all instances, and holds a running-turn slot until the turn ends elsewhere", async () => {
    const kit: AgentKit = { script: [slowTurn, slowTurn], delayMs: 0, toolSignals: [] };
    const [a, b] = [await instance(kit), await instance(kit)];
    const first = (await a("/conversations", {})).body.id!;
    const second = (await a("/conversations", {})).body.id!;
    expect((await b("/conversations", {})).status).toBe(201);
    const refused = await b("/conversations", {});
    expect(refused.status).toBe(429);
    expect(refused.body.error?.code).toBe("GLOVE_TOO_MANY_CONVERSATIONS");

    expect((await a(`/conversations/${first}/messages`, { text: "slow" })).status).toBe(202);
    const busy = await a(`/conversations/${second}/messages`, { text: "no room" });
    expect(busy.status).toBe(429);
    expect(busy.body.error?.code).toBe("GLOVE_TOO_MANY_TURNS");
    // Aborted through B; A learns that the turn ended from Redis and frees the slot.
    expect((await b(`/conversations/${first}/abort`, {})).status).toBe(200);
    expect(await acceptedSoon(() => a(`/conversations/${second}/messages`, { text: "room now" }))).toBe(202);
    await b(`/conversations/${second}/abort`, {});
  }, 60_000);
});
