import { describe, expect, it } from "vitest";
import { strategyOf, visibleSlots, type ClientSlot } from "glove-client";

let seq = 0;
function slot(partial: Partial<ClientSlot> & Pick<ClientSlot, "id">): ClientSlot {
  return {
    renderer: "card",
    input: {},
    toolName: "card",
    toolCallId: null,
    displayStrategy: null,
    mode: "forget",
    status: "shown",
    seq: seq++,
    ...partial,
  };
}
const ids = (slots: ClientSlot[]) => visibleSlots(slots).map((s) => s.id);

describe("display strategies", () => {
  it("stay: always, also once settled (and it is the default)", () => {
    expect(
      ids([
        slot({ id: "a", status: "resolved", mode: "wait" }),
        slot({ id: "b", displayStrategy: "stay", status: "closed" }),
      ]),
    ).toEqual(["a", "b"]);
    expect(strategyOf({ displayStrategy: null, renderer: "card" })).toBe("stay");
  });

  it("hide-on-complete: while pending or shown, gone once settled; the default for permission prompts", () => {
    const slots = [
      slot({ id: "waiting", displayStrategy: "hide-on-complete", mode: "wait", status: "pending" }),
      slot({ id: "answered", displayStrategy: "hide-on-complete", mode: "wait", status: "resolved" }),
      slot({ id: "forgot", displayStrategy: "hide-on-complete", status: "shown" }),
      slot({ id: "asked", renderer: "permission_request", toolName: "delete_file", mode: "wait", status: "pending" }),
      slot({
        id: "allowed",
        renderer: "permission_request",
        toolName: "delete_file",
        mode: "wait",
        status: "resolved",
      }),
    ];
    expect(ids(slots)).toEqual(["waiting", "forgot", "asked"]);
  });

  it("hide-on-new: only the newest slot of the same tool, whatever its status; other tools and permission prompts apart", () => {
    const slots = [
      slot({ id: "card1", displayStrategy: "hide-on-new" }),
      slot({ id: "weather1", toolName: "weather", renderer: "weather", displayStrategy: "hide-on-new" }),
      slot({ id: "card2", displayStrategy: "hide-on-new", status: "closed" }),
      slot({ id: "perm", renderer: "permission_request", toolName: "card", mode: "wait", status: "pending" }),
    ];
    expect(ids(slots)).toEqual(["weather1", "card2", "perm"]);
  });

  it("keeps the order slots appeared in", () => {
    const a = slot({ id: "a" });
    const b = slot({ id: "b" });
    expect(ids([b, a])).toEqual(["a", "b"]);
  });
});
