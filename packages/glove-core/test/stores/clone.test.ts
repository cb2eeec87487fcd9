import { describe, expect, it } from "vitest";
import { clonePlain } from "../../src/stores/clone.js";

describe("clonePlain", () => {
  it("keeps an own __proto__ key (as JSON.parse makes them) as a key, never as the prototype", () => {
    const original = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    const copy = clonePlain(original);
    expect(Object.keys(copy)).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe(JSON.stringify(original));
  });

  it("deep-copies plain data so the copy is independent", () => {
    const original = { a: [1, { b: "x" }], c: { d: null, e: undefined, f: true } };
    const copy = clonePlain(original);
    expect(copy).toStrictEqual(original);
    (copy.a[1] as { b: string }).b = "changed";
    copy.c.f = false;
    expect((original.a[1] as { b: string }).b).toBe("x");
    expect(original.c.f).toBe(true);
    expect("e" in copy.c).toBe(true);
  });

  it("copies non-plain objects exactly through structuredClone", () => {
    const date = new Date(0);
    const copy = clonePlain({ when: date, bytes: new Uint8Array([1, 2]), map: new Map([["k", 1]]) });
    expect(copy.when).toBeInstanceOf(Date);
    expect(copy.when).not.toBe(date);
    expect(copy.when.getTime()).toBe(0);
    expect([...copy.bytes]).toEqual([1, 2]);
    expect(copy.map.get("k")).toBe(1);
  });

  it("handles very deep nesting", () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 200; i++) deep = { next: deep };
    expect(clonePlain(deep)).toStrictEqual(deep);
  });
});
