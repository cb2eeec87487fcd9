import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TerminalAgent } from "../src/agent.js";
import { convert, convertUnitsTool, formatNumber } from "../src/tools/convert-units.js";
import { parseConversion } from "../src/walkthrough-script.js";
import { runTool, scriptedAgent, tempDir } from "./helpers.js";

describe("convert", () => {
  it("converts lengths, masses and volumes", () => {
    expect(convert(42, "km", "mi")).toBeCloseTo(26.0976, 4);
    expect(convert(1, "mi", "km")).toBeCloseTo(1.609344, 6);
    expect(convert(1, "kg", "lb")).toBeCloseTo(2.20462, 5);
    expect(convert(16, "oz", "lb")).toBeCloseTo(1, 10);
    expect(convert(1, "gal", "l")).toBeCloseTo(3.785411784, 9);
    expect(convert(12, "in", "ft")).toBeCloseTo(1, 10);
  });

  it("converts temperatures through kelvin", () => {
    expect(convert(100, "C", "F")).toBeCloseTo(212, 10);
    expect(convert(-40, "F", "C")).toBeCloseTo(-40, 10);
    expect(convert(0, "K", "C")).toBeCloseTo(-273.15, 10);
    expect(convert(21, "C", "C")).toBe(21);
  });

  it("refuses to mix dimensions", () => {
    expect(() => convert(1, "km", "kg")).toThrow(/different things/);
    expect(() => convert(1, "C", "km")).toThrow(/different things/);
  });

  it("formats at most two decimals", () => {
    expect(formatNumber(26.09762)).toBe("26.1");
    expect(formatNumber(154.3236)).toBe("154.32");
  });
});

describe("convert_units tool", () => {
  const tool = convertUnitsTool();
  let agent: TerminalAgent;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const tmp = await tempDir();
    cleanup = tmp.cleanup;
    agent = scriptedAgent(tmp.dir);
  });
  afterAll(() => cleanup());
  const run = (input: unknown) => runTool(agent, tool, input);
  const schema = tool.inputSchema!;

  it("validates its input with zod", () => {
    expect(schema.safeParse({ value: 1, from: "km", to: "mi" }).success).toBe(true);
    expect(schema.safeParse({ value: 1, from: "parsec", to: "mi" }).success).toBe(false);
    expect(schema.safeParse({ value: "1", from: "km", to: "mi" }).success).toBe(false);
  });

  it("returns a readable result and the raw numbers", async () => {
    expect(await run({ value: 42, from: "km", to: "mi" })).toMatchObject({
      status: "success",
      data: "42 km = 26.1 mi",
      renderData: { value: 42, from: "km", to: "mi" },
    });
    expect(await run({ value: 20, from: "C", to: "F" })).toMatchObject({ data: "20 °C = 68 °F" });
  });

  it("reports an impossible conversion as a tool error", async () => {
    expect(await run({ value: 1, from: "kg", to: "mi" })).toMatchObject({
      status: "error",
      message: expect.stringMatching(/kg to mi/),
    });
  });
});

describe("parseConversion (the scripted model's reading of the user)", () => {
  it("reads amounts and units in several spellings", () => {
    expect(parseConversion("Convert my 42 km running route to miles")).toEqual({ value: 42, from: "km", to: "mi" });
    expect(parseConversion("70kg in lb please")).toEqual({ value: 70, from: "kg", to: "lb" });
    expect(parseConversion("what is 21 C")).toEqual({ value: 21, from: "C", to: "F" });
  });

  it("falls back to the suggested conversion", () => {
    expect(parseConversion("hello")).toEqual({ value: 42, from: "km", to: "mi" });
  });
});
