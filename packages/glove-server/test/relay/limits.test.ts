import { describe, expect, it } from "vitest";
import { ConcurrencyLimiter } from "../../src/limits/concurrency.js";
import { RateLimiter } from "../../src/limits/rate-limiter.js";
import { SseChannel } from "../../src/relay/sse-channel.js";

describe("RateLimiter", () => {
  it("allows a burst of perMinute, then refills one request every 60/perMinute seconds", () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(6, () => now);
    for (let i = 0; i < 6; i++) expect(limiter.take("a").allowed).toBe(true);
    expect(limiter.take("a")).toEqual({ allowed: false, retryAfterSeconds: 10 });
    expect(limiter.take("b").allowed).toBe(true);
    now += 4_000;
    expect(limiter.take("a")).toEqual({ allowed: false, retryAfterSeconds: 6 });
    now += 6_000;
    expect(limiter.take("a").allowed).toBe(true);
    expect(limiter.take("a").allowed).toBe(false);
  });

  it("forgets principals whose buckets have refilled, so memory stays bounded", () => {
    let now = 0;
    const limiter = new RateLimiter(60, () => now);
    for (let i = 0; i < 100; i++) limiter.take(`user-${i}`);
    expect(limiter.size).toBe(100);
    now += 61_000;
    limiter.take("fresh");
    expect(limiter.size).toBe(1);
  });
});

describe("ConcurrencyLimiter", () => {
  it("hands out perPrincipal slots per key; a release (even twice) frees exactly one", () => {
    const limiter = new ConcurrencyLimiter(2);
    const a1 = limiter.acquire("a")!;
    const a2 = limiter.acquire("a")!;
    expect(limiter.acquire("a")).toBeUndefined();
    expect(limiter.acquire("b")).toBeDefined();
    a1();
    a1();
    expect(limiter.count("a")).toBe(1);
    expect(limiter.acquire("a")).toBeDefined();
    a2();
  });
});

describe("SseChannel", () => {
  it("makes send wait while the client is not reading, and resume when it reads", async () => {
    const channel = new SseChannel({ keepAliveMs: 0, onCancel: () => {} });
    const big = "x".repeat(40 * 1024);
    await channel.send("text_delta", { text: big });
    let second = false;
    const pending = channel.send("text_delta", { text: big }).then(() => (second = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(second).toBe(false);
    const reader = channel.stream.getReader();
    await reader.read();
    await pending;
    expect(second).toBe(true);
    channel.close();
    const rest = await reader.read();
    expect(new TextDecoder().decode(rest.value)).toMatch(/^event: text_delta\ndata: \{"text":"x+"\}\n\n$/);
    expect((await reader.read()).done).toBe(true);
  });

  it("releases waiting senders and reports cancellation when the client goes away; drops unsafe event names", async () => {
    let cancelled = 0;
    const channel = new SseChannel({ keepAliveMs: 0, onCancel: () => cancelled++ });
    // Over the high-water mark: this send waits for a reader that never comes.
    const pending = channel.send("text_delta", { text: "x".repeat(70 * 1024) });
    await channel.stream.cancel();
    await pending;
    expect(cancelled).toBe(1);
    expect(channel.isClosed).toBe(true);
    await channel.send("text_delta", { text: "after" });
    channel.close();

    const other = new SseChannel({ keepAliveMs: 0, onCancel: () => {} });
    await other.send("bad\nevent: result", {});
    await other.send("ok", { a: "line\nbreak" });
    other.close();
    expect(await new Response(other.stream).text()).toBe('event: ok\ndata: {"a":"line\\nbreak"}\n\n');
  });
});
