import { inject, type App, type InjectionKey } from "vue";
import type { ModelAdapter } from "glove-core";
import type { UseGloveConfig } from "./use-glove-config.js";

export interface GloveClientConfig extends UseGloveConfig {
  /** Builds the model of each local-mode session (instead of `model` / `endpoint`). */
  createModel?: (() => ModelAdapter) | undefined;
}

const GLOVE_CLIENT: InjectionKey<GloveClient> = Symbol("glove-client");

/**
 * App-wide defaults for every `useGlove` of an app: `app.use(new GloveClient({ server: "/api" }))`.
 * A composable's own config wins field by field. Create it once, outside components.
 */
export class GloveClient {
  readonly config: Readonly<GloveClientConfig>;

  constructor(config: GloveClientConfig = {}) {
    this.config = { ...config };
  }

  /** Vue plugin entry: `app.use(client)`. */
  install(app: App): void {
    app.provide(GLOVE_CLIENT, this);
  }
}

/** The client the app installed, or null (outside a component's setup: always null). */
export function useGloveClient(): GloveClient | null {
  return inject(GLOVE_CLIENT, null);
}
