import type { BareConfig } from "./bare-target.js";

/** What a server process answers to the bench's requests (shared by the child and in-process targets). */
export interface Serving {
  url: string;
  live(): number;
  configure(config: Partial<BareConfig>): void;
  close(): Promise<void>;
}
