import type { GloveFoldArgs } from "glove-core";
import { z } from "zod";

type Dimension = "length" | "mass" | "volume";

/** Linear units: how many base units (m, kg, l) one unit is. */
const LINEAR: Record<string, { dimension: Dimension; factor: number; label: string }> = {
  m: { dimension: "length", factor: 1, label: "m" },
  km: { dimension: "length", factor: 1000, label: "km" },
  mi: { dimension: "length", factor: 1609.344, label: "mi" },
  ft: { dimension: "length", factor: 0.3048, label: "ft" },
  in: { dimension: "length", factor: 0.0254, label: "in" },
  kg: { dimension: "mass", factor: 1, label: "kg" },
  g: { dimension: "mass", factor: 0.001, label: "g" },
  lb: { dimension: "mass", factor: 0.45359237, label: "lb" },
  oz: { dimension: "mass", factor: 0.028349523125, label: "oz" },
  l: { dimension: "volume", factor: 1, label: "L" },
  gal: { dimension: "volume", factor: 3.785411784, label: "gal (US)" },
};

/** Temperatures are affine: convert through kelvin. */
const TEMPERATURE: Record<string, { toK: (v: number) => number; fromK: (k: number) => number; label: string }> = {
  C: { toK: (v) => v + 273.15, fromK: (k) => k - 273.15, label: "°C" },
  F: { toK: (v) => ((v - 32) * 5) / 9 + 273.15, fromK: (k) => ((k - 273.15) * 9) / 5 + 32, label: "°F" },
  K: { toK: (v) => v, fromK: (k) => k, label: "K" },
};

export const UNITS = ["m", "km", "mi", "ft", "in", "kg", "g", "lb", "oz", "l", "gal", "C", "F", "K"] as const;
export type Unit = (typeof UNITS)[number];

export class ConversionError extends Error {}

/** Converts `value` between two units of the same dimension; throws ConversionError otherwise. */
export function convert(value: number, from: Unit, to: Unit): number {
  const tFrom = TEMPERATURE[from];
  const tTo = TEMPERATURE[to];
  if (tFrom && tTo) return tTo.fromK(tFrom.toK(value));
  const lFrom = LINEAR[from];
  const lTo = LINEAR[to];
  if (lFrom && lTo && lFrom.dimension === lTo.dimension) return (value * lFrom.factor) / lTo.factor;
  throw new ConversionError(`Cannot convert ${from} to ${to}: they measure different things.`);
}

/** Rounds for display: at most 2 decimals, no trailing zeros. */
export function formatNumber(value: number): string {
  return String(Math.round(value * 100) / 100);
}

export function unitLabel(unit: Unit): string {
  return TEMPERATURE[unit]?.label ?? LINEAR[unit]?.label ?? unit;
}

const inputSchema = z.object({
  value: z.number().finite().describe("The amount to convert."),
  from: z.enum(UNITS).describe("Unit of the amount: m km mi ft in, kg g lb oz, l gal, C F K."),
  to: z.enum(UNITS).describe("Unit to convert to (same kind of quantity)."),
});

export type ConvertUnitsInput = z.infer<typeof inputSchema>;

export function convertUnitsTool(): GloveFoldArgs<ConvertUnitsInput> {
  return {
    name: "convert_units",
    description:
      "Convert an amount between units of length, mass, volume or temperature (e.g. km to mi, kg to lb, C to F).",
    inputSchema,
    async do({ value, from, to }) {
      try {
        const result = convert(value, from, to);
        const text = `${formatNumber(value)} ${unitLabel(from)} = ${formatNumber(result)} ${unitLabel(to)}`;
        return { status: "success", data: text, renderData: { value, from, to, result } };
      } catch (error) {
        if (!(error instanceof ConversionError)) throw error;
        return { status: "error", data: null, message: error.message };
      }
    },
  };
}
