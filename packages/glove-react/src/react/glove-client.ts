import type { ModelAdapter } from "glove-core";
import type { UseGloveConfig } from "./use-glove-config.js";

export interface GloveClientConfig extends UseGloveConfig {
  /** Builds the model of each local-mode session (instead of `model` / `endpoint`). */
  createModel?: (() => ModelAdapter) | undefined;
}

/**
 * App-wide defaults for every `useGlove` under a `<GloveProvider client>`: a hook's own config
 * wins field by field. Create it once, outside components.
 */
export class GloveClient {
  readonly config: Readonly<GloveClientConfig>;

  constructor(config: GloveClientConfig = {}) {
    this.config = { ...config };
  }
}
