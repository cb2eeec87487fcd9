import { Displaymanager, Glove, MemoryStore, type GloveConfig, type StoreAdapter } from "glove-core";
import { RecordingSubscriber, ScriptedModel, type ScriptedStep } from "glove-core/testing";

export interface TestGlove {
  glove: Glove;
  /** The scripted model (a custom config.model is passed through as is). */
  model: ScriptedModel;
  store: StoreAdapter;
  events: RecordingSubscriber;
  dm: Displaymanager;
}

/** A built Glove on a ScriptedModel and a MemoryStore, with a recording subscriber. */
export function makeGlove(steps: ScriptedStep[], config: Partial<GloveConfig> = {}): TestGlove {
  const model = config.model ?? new ScriptedModel(steps);
  const store = config.store ?? new MemoryStore("test-session");
  const dm = (config.displayManager as Displaymanager | undefined) ?? new Displaymanager();
  const events = new RecordingSubscriber();
  const glove = new Glove({
    systemPrompt: "You are a test agent.",
    compaction_config: { compaction_instructions: "Summarize the conversation." },
    ...config,
    model,
    store,
    displayManager: dm,
  });
  glove.addSubscriber(events).build();
  return { glove, model: model as ScriptedModel, store, events, dm };
}

/** A promise with its resolve function exposed. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Every persisted tool call has exactly one persisted result, and no result is orphaned. */
export async function expectValidHistory(store: StoreAdapter): Promise<void> {
  const messages = await store.getMessages();
  const calls = messages.flatMap((m) => m.tool_calls ?? []).map((c) => c.id);
  const results = messages.flatMap((m) => m.tool_results ?? []).map((r) => r.call_id);
  if (JSON.stringify([...calls].sort()) !== JSON.stringify([...results].sort())) {
    throw new Error(`History pairs broken: calls ${JSON.stringify(calls)} vs results ${JSON.stringify(results)}`);
  }
}
