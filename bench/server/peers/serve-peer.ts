/** Starts one peer server for the bench's child-process or in-process targets. */
import type { Serving } from "../serving.js";
import { startAiSdkPeer } from "./aisdk-peer.js";
import { startBarePeer } from "./bare-peer.js";
import { startGlovePeer } from "./glove-peer.js";
import type { PeerKind, PeerOptions } from "./peer-options.js";

export async function servePeer(kind: PeerKind, options: PeerOptions): Promise<Serving> {
  const running =
    kind === "glove-peer"
      ? await startGlovePeer(options).then((g) => ({
          url: g.url,
          live: () => g.server.liveConversations,
          close: () => g.close(),
        }))
      : kind === "bare-peer"
        ? await startBarePeer(options).then((b) => ({
            url: b.url,
            live: () => b.liveConversations,
            close: () => b.close(),
          }))
        : await startAiSdkPeer(options).then((a) => ({
            url: a.url,
            live: () => a.liveConversations,
            close: () => a.close(),
          }));
  return { ...running, configure: () => undefined };
}
