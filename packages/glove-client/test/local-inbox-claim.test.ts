/**
 * Local mode keeps the inbox claim (`consumeInboxItem`, used by `inbox: { wake: true }`): a
 * PersistedStore saves a won claim, and the observed store returns the claim's outcome and
 * reports the changed inbox like any other inbox write.
 */
import { describe, expect, it } from "vitest";
import type { InboxItem } from "glove-core";
import { PersistedStore } from "glove-client";
import { observeStore } from "../src/local/observed-store.js";
import type { SessionEvent } from "../src/types/wire.js";
import { MemoryStorage } from "./support/wait.js";

const item: InboxItem = {
  id: "i1",
  tag: "refund",
  request: "Approve?",
  response: null,
  status: "pending",
  blocking: false,
  created_at: "2026-01-01T00:00:00.000Z",
  resolved_at: null,
};

describe("the inbox claim in local mode", () => {
  it("a PersistedStore saves a won claim: a reload sees the item consumed", async () => {
    const storage = new MemoryStorage();
    const store = await PersistedStore.open("s1", storage);
    await store.addInboxItem(item);
    expect(await store.consumeInboxItem("i1")).toBe(false);
    await store.updateInboxItem("i1", {
      status: "resolved",
      response: "Yes.",
      resolved_at: "2026-01-02T00:00:00.000Z",
    });
    expect(await store.consumeInboxItem("i1")).toBe(true);
    const reloaded = await PersistedStore.open("s1", storage);
    expect((await reloaded.getInboxItems())[0]).toMatchObject({ status: "consumed", response: "Yes." });
    expect(await reloaded.consumeInboxItem("i1")).toBe(false);
  });

  it("the observed store returns the claim's outcome and reports the inbox", async () => {
    const storage = new MemoryStorage();
    const inner = await PersistedStore.open("s2", storage);
    const events: SessionEvent[] = [];
    const observed = observeStore(inner, (event) => events.push(event), 0);
    await observed.addInboxItem!({ ...item, status: "resolved", response: "Yes." });
    events.length = 0;
    expect(await observed.consumeInboxItem!("i1")).toBe(true);
    expect(events).toEqual([{ type: "inbox", items: [{ ...item, status: "consumed", response: "Yes." }] }]);
    expect(await observed.consumeInboxItem!("i1")).toBe(false);
  });
});
