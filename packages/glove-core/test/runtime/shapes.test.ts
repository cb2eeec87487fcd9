import { describe, expect, it } from "vitest";
import { copyRecord, mapPacked } from "../../src/runtime/shapes.js";

describe("shape-stable builders give what the built-ins give", () => {
  it("mapPacked is Array.prototype.map (values, order, index) and returns a new array", () => {
    const items = ["a", "b", "c"];
    const seen: number[] = [];
    const out = mapPacked(items, (item, i) => {
      seen.push(i);
      return `${item}${i}`;
    });
    expect(out).toEqual(items.map((item, i) => `${item}${i}`));
    expect(seen).toEqual([0, 1, 2]);
    expect(mapPacked([], () => 1)).toEqual([]);
  });

  it("copyRecord is a spread copy: own enumerable keys in order, symbols, a new object", () => {
    const tag = Symbol("tag");
    const source: Record<string | symbol, unknown> = { sender: "agent", text: "hi", tool_calls: [] };
    Object.defineProperty(source, "hidden", { value: 1, enumerable: false });
    source[tag] = "s";
    const copy = copyRecord(source);
    expect(copy).not.toBe(source);
    expect(Reflect.ownKeys(copy)).toEqual(Reflect.ownKeys({ ...source }));
    expect(JSON.stringify(copy)).toBe(JSON.stringify({ ...source }));
    expect(copy[tag]).toBe("s");
  });

  it("copyRecord keeps an own __proto__ key as data, as spread does, instead of setting the prototype", () => {
    const source = JSON.parse('{"sender":"agent","__proto__":{"polluted":true},"text":"x"}') as Record<string, unknown>;
    const copy = copyRecord(source);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(["sender", "__proto__", "text"]);
    expect(JSON.stringify(copy)).toBe(JSON.stringify({ ...source }));
  });
});
