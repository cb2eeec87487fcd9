/** What every peer server of the peers bench is started with. */
export interface PeerOptions {
  /** The fake OpenAI server's base URL (…/v1). */
  modelURL: string;
  /** glove-server's storage (the other peers keep their history in memory). */
  storage?: "memory" | "sqlite";
}

/** The peers: glove-server, a bare node:http loop, the AI SDK. */
export type PeerKind = "glove-peer" | "bare-peer" | "aisdk-peer";

export const PEER_KINDS: readonly PeerKind[] = ["glove-peer", "bare-peer", "aisdk-peer"];
