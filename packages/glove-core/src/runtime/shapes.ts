/**
 * Builders whose results keep one V8 hidden class (map) per kind of record, whatever tier the
 * calling code runs in. Messages and tool calls pass through dozens of hot functions (stores,
 * integrity checks, the history encoder); when the same kind of record arrives with a new map,
 * optimised code that only knew the old one deoptimises ("wrong map") and is compiled again.
 * On a busy server that JIT work went on long after warm-up. See bench/README.md "JIT churn".
 */

/**
 * `Array.prototype.map` whose result always has the same elements kind. V8's `map` builtin
 * returns a packed array while its caller runs unoptimised but TurboFan's inlined `map` a holey
 * one, so an array of messages changed its map (not its contents) when its producer got
 * optimised. An array literal grown by `push` is packed in every tier.
 */
export function mapPacked<T, U>(items: readonly T[], fn: (item: T, index: number) => U): U[] {
  const out: U[] = [];
  for (let i = 0; i < items.length; i++) out.push(fn(items[i]!, i));
  return out;
}

/**
 * A shallow copy of a record, as `{ ...source }`, that properties may be added to later (a
 * message's `id`). V8 gives a spread copy a map outside the transition tree, so each property
 * added afterwards makes a map of its own for that one object: every stored agent message had a
 * distinct map. `Object.assign` onto `{}` follows the shared transitions. An own `__proto__` key
 * would set the copy's prototype under `Object.assign`, so such a record is still spread.
 */
export function copyRecord<T extends object>(source: T): T {
  if (Object.hasOwn(source, "__proto__")) return { ...source };
  return Object.assign({}, source);
}
