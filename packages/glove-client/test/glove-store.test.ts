import { afterEach, describe, expect, it, vi } from "vitest";
import { GloveStore, nextFrame, type FrameScheduler } from "glove-client";

/** A fake animation-frame clock: callbacks run when the test says a frame passed. */
function fakeFrames() {
  let queue: Array<() => void> = [];
  const scheduler: FrameScheduler = (callback) => {
    queue.push(callback);
    return () => {
      queue = queue.filter((c) => c !== callback);
    };
  };
  return {
    scheduler,
    frame() {
      const run = queue;
      queue = [];
      for (const callback of run) callback();
    },
    get pending() {
      return queue.length;
    },
  };
}

describe("GloveStore", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("tells listeners about 5,000 text deltas once per frame, not once per delta", () => {
    const frames = fakeFrames();
    const store = new GloveStore(undefined, { scheduler: frames.scheduler });
    let notifications = 0;
    store.subscribe(() => notifications++);
    for (let i = 0; i < 5000; i++) store.dispatch({ type: "text_delta", text: "x" });
    expect(notifications).toBe(0);
    expect(store.getSnapshot().streamingText).toBe(""); // React sees the last published state
    expect(store.current.streamingText).toHaveLength(5000); // the session sees everything
    frames.frame();
    expect(notifications).toBe(1);
    expect(store.getSnapshot().streamingText).toHaveLength(5000);

    // Spread over 10 frames: 10 notifications.
    for (let f = 0; f < 10; f++) {
      for (let i = 0; i < 500; i++) store.dispatch({ type: "text_delta", text: "y" });
      frames.frame();
    }
    expect(notifications).toBe(11);
    expect(store.getSnapshot().streamingText).toBe("x".repeat(5000) + "y".repeat(5000));
  });

  it("publishes other events at once, with the text before them, and drops the scheduled frame", () => {
    const frames = fakeFrames();
    const store = new GloveStore(undefined, { scheduler: frames.scheduler });
    const seen: string[] = [];
    store.subscribe(() => seen.push(`${store.getSnapshot().streamingText}|${store.getSnapshot().liveTools.length}`));
    store.dispatch({ type: "text_delta", text: "Let me look." });
    store.dispatch({ type: "tool_use", id: "c1", name: "search", input: {} });
    expect(seen).toEqual(["Let me look.|1"]);
    expect(frames.pending).toBe(0);
  });

  it("keeps a stable snapshot between notifications (useSyncExternalStore's contract)", () => {
    const store = new GloveStore(undefined, { scheduler: fakeFrames().scheduler });
    const a = store.getSnapshot();
    store.dispatch({ type: "text_delta", text: "x" });
    expect(store.getSnapshot()).toBe(a);
    expect(store.getServerSnapshot()).toBe(a);
    store.flush();
    expect(store.getSnapshot()).not.toBe(a);
    expect(store.getServerSnapshot()).toBe(a);
  });

  it("does not rebuild the timeline for streaming text", () => {
    const frames = fakeFrames();
    const store = new GloveStore(undefined, { scheduler: frames.scheduler });
    store.dispatch({ type: "messages_appended", messages: [{ sender: "user", text: "hi" }], startIndex: 0 });
    const before = store.timeline();
    store.dispatch({ type: "text_delta", text: "abc" });
    frames.frame();
    expect(store.timeline()).toBe(before);
  });

  it("uses requestAnimationFrame when there is one, and a ~16 ms timer when there is none", async () => {
    const raf = vi.fn((callback: FrameRequestCallback) => setTimeout(() => callback(0), 0) as unknown as number);
    vi.stubGlobal("requestAnimationFrame", raf);
    vi.stubGlobal("cancelAnimationFrame", (handle: number) => clearTimeout(handle));
    let ran = 0;
    nextFrame(() => ran++);
    expect(raf).toHaveBeenCalledTimes(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(ran).toBe(1);

    vi.unstubAllGlobals();
    expect(typeof globalThis.requestAnimationFrame).toBe("undefined");
    const started = Date.now();
    await new Promise<void>((resolve) => nextFrame(resolve));
    expect(Date.now() - started).toBeGreaterThanOrEqual(10);
    const cancelled = vi.fn();
    nextFrame(cancelled)();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(cancelled).not.toHaveBeenCalled();
  });
});
