/** mulberry32: a small seeded generator, so a comparison's intervals are the same on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A percentile bootstrap interval of the mean of `values`: `resamples` resamples with replacement,
 * drawn from a generator seeded with `seed`.
 */
export function bootstrapMeanInterval(
  values: number[],
  options: { seed: number; resamples: number; confidence: number },
): [number, number] {
  if (!values.length) return [0, 0];
  const random = seededRandom(options.seed);
  const means: number[] = [];
  for (let r = 0; r < options.resamples; r++) {
    let sum = 0;
    for (let i = 0; i < values.length; i++) sum += values[Math.floor(random() * values.length)]!;
    means.push(sum / values.length);
  }
  means.sort((a, b) => a - b);
  const tail = (1 - options.confidence) / 2;
  const at = (q: number) => means[Math.min(means.length - 1, Math.max(0, Math.floor(q * means.length)))]!;
  return [at(tail), at(1 - tail)];
}
