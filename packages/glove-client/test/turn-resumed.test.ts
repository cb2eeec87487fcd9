import { describe, expect, it } from "vitest";
import { initialState } from "../src/state/initial-state.js";
import { reduce } from "../src/state/reducer.js";
import { frameToAction } from "../src/server/wire-events.js";

describe("turn_resumed (glove-server's scale mode took a turn over)", () => {
  it("drops the text the dead attempt streamed and keeps the turn running", () => {
    let state = reduce(initialState(), { type: "turn_start", turnId: "t1" });
    state = reduce(state, { type: "text_delta", text: "half an ans" });
    const resumed = frameToAction({
      event: "turn_resumed",
      data: JSON.stringify({ turnId: "t1", attempt: 2 }),
      id: "9",
    });
    expect(resumed?.id).toBe(9);
    state = reduce(state, resumed!.action);
    expect(state).toMatchObject({ busy: true, turnId: "t1", streamingText: "" });
    state = reduce(state, { type: "text_delta", text: "A whole answer." });
    expect(state.streamingText).toBe("A whole answer.");
  });
});
