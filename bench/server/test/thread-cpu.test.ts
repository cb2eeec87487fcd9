import { describe, expect, it } from "vitest";
import { threadCpuUs } from "../thread-cpu.js";

describe("threadCpuUs", () => {
  it("reads the CPU of the threads other than the main one where /proc is there, else undefined", () => {
    const value = threadCpuUs();
    if (process.platform === "linux") expect(Number.isSafeInteger(value) && value! >= 0).toBe(true);
    else expect(value).toBeUndefined();
  });
});
