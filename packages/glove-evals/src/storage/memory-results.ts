import type { EvalResultsStore, ExperimentRecord, ItemResult } from "./records.js";

const clone = <T>(value: T): T => structuredClone(value);

/** Results in memory (tests, throwaway runs). */
export class MemoryResultsStore implements EvalResultsStore {
  readonly #experiments = new Map<string, ExperimentRecord>();
  readonly #results = new Map<string, ItemResult>();

  async createExperiment(record: ExperimentRecord): Promise<void> {
    this.#experiments.set(record.id, clone(record));
  }
  async getExperiment(id: string): Promise<ExperimentRecord | undefined> {
    const found = this.#experiments.get(id);
    return found && clone(found);
  }
  async updateExperiment(id: string, changes: Partial<ExperimentRecord>): Promise<void> {
    const found = this.#experiments.get(id);
    if (found) this.#experiments.set(id, { ...found, ...clone(changes) });
  }
  async listExperiments(query: { datasetName?: string; limit?: number } = {}): Promise<ExperimentRecord[]> {
    return [...this.#experiments.values()]
      .filter((e) => query.datasetName === undefined || e.datasetName === query.datasetName)
      .sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0))
      .slice(0, query.limit ?? 100)
      .map(clone);
  }
  async saveResult(result: ItemResult): Promise<void> {
    this.#results.set(`${result.experimentId}\u0000${result.itemId}\u0000${result.repetition}`, clone(result));
  }
  async results(experimentId: string): Promise<ItemResult[]> {
    return [...this.#results.values()]
      .filter((r) => r.experimentId === experimentId)
      .sort((a, b) => (a.itemId < b.itemId ? -1 : a.itemId > b.itemId ? 1 : a.repetition - b.repetition))
      .map(clone);
  }
}
