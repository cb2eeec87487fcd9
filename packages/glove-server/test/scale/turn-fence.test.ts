import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import type { Message } from "glove-core";
import { postgresStorage, TurnFencedError } from "glove-server/postgres";
import { PG_URL, uniqueName } from "./support/scale-env.js";
import { statementsDuring } from "../../../../test-support/pg-statements.js";

const schema = uniqueName("fence");
const pool = new pg.Pool({ connectionString: PG_URL, max: 6 });
afterAll(async () => {
  await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await pool.end();
});

const hi: Message = { sender: "user", text: "hi" };
const answer = (text: string): Message => ({ sender: "agent", text });

describe("postgresStorage turnFence: a replaced writer cannot append", () => {
  it("after a later take, the earlier writer's append is refused with nothing written; the later writer's works", async () => {
    const fence = postgresStorage({ pool, schema }).turnFence!;
    const id = crypto.randomUUID();
    const first = await fence.store(id, await fence.take(id));
    await first.appendMessages([hi]);
    const second = await fence.store(id, await fence.take(id));
    const refused = await first.appendMessages([answer("from the first")]).catch((error: unknown) => error);
    expect(TurnFencedError.isInstance(refused)).toBe(true);
    expect((refused as TurnFencedError).code).toBe("GLOVE_TURN_FENCED");
    await second.appendMessages([answer("from the second")]);
    expect((await second.getMessages()).map((m) => m.text)).toEqual(["hi", "from the second"]);
  });

  it("refuses the writer's appends once it was told it lost the turn, before any later take", async () => {
    const fence = postgresStorage({ pool, schema }).turnFence!;
    const id = crypto.randomUUID();
    let holds = true;
    const store = await fence.store(id, await fence.take(id), () => holds);
    await store.appendMessages([hi]);
    holds = false; // e.g. its run lock in Redis named another worker
    const refused = await store.appendMessages([answer("aborted meanwhile")]).catch((error: unknown) => error);
    expect(TurnFencedError.isInstance(refused)).toBe(true);
    expect((await store.getMessages()).map((m) => m.text)).toEqual(["hi"]);
  });

  it("take waits for an append in flight (it holds the fence row FOR SHARE), so what it stored is visible after take", async () => {
    const fence = postgresStorage({ pool, schema }).turnFence!;
    const id = crypto.randomUUID();
    const mine = await fence.take(id);
    const inFlight = await pool.connect();
    try {
      await inFlight.query("BEGIN");
      const { rows } = await inFlight.query(
        `SELECT writer FROM ${schema}.gloveserver_turn_fences WHERE conversation_id = $1 FOR SHARE`,
        [id],
      );
      expect(Number(rows[0].writer)).toBe(mine);
      let taken = false;
      const next = fence.take(id).then((n) => ((taken = true), n));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(taken).toBe(false);
      await inFlight.query("COMMIT");
      expect(await next).toBe(mine + 1);
    } finally {
      inFlight.release();
    }
  });

  it("takeWithRecord bumps the writer and reads the catalog row in one statement; a missing conversation reads as undefined and is still fenced", async () => {
    const storage = postgresStorage({ pool, schema });
    const fence = storage.turnFence!;
    const id = crypto.randomUUID();
    const record = {
      id,
      owner: "ann",
      agent: "helper",
      title: "t",
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
      eventIdsReserved: 40,
      runningTurnId: "turn-1",
      lastClientMessageId: null,
      lastTurnId: null,
      lastTurnStatus: null,
      stats: { turns: 2, tokens_in: 5, tokens_out: 6 },
    };
    await storage.catalog.create(record);
    const first = await fence.store(id, await fence.take(id));
    await first.appendMessages([hi]);
    let taken: Awaited<ReturnType<NonNullable<typeof fence.takeWithRecord>>> | undefined;
    const statements = await statementsDuring(async () => (taken = await fence.takeWithRecord!(id)));
    expect(statements).toHaveLength(1);
    expect(taken).toEqual({ writer: 2, record: await storage.catalog.get(id) });
    expect(taken!.record).toMatchObject({
      owner: "ann",
      agent: "helper",
      eventIdsReserved: 40,
      runningTurnId: "turn-1",
      stats: { turns: 2, tokens_in: 5, tokens_out: 6 },
    });
    const refused = await first.appendMessages([answer("from the first")]).catch((error: unknown) => error);
    expect(TurnFencedError.isInstance(refused)).toBe(true);
    const gone = crypto.randomUUID();
    expect(await fence.takeWithRecord!(gone)).toEqual({ writer: 1, record: undefined });
    expect(await fence.take(gone)).toBe(2);
  });
});
