import { createContext, useContext, type ReactNode } from "react";
import type { GloveClient } from "./glove-client.js";

const GloveClientContext = createContext<GloveClient | null>(null);

/** Makes `client`'s defaults apply to every `useGlove` below. */
export function GloveProvider({ client, children }: { client: GloveClient; children?: ReactNode }): ReactNode {
  return <GloveClientContext.Provider value={client}>{children}</GloveClientContext.Provider>;
}

/** The client of the nearest `<GloveProvider>`, or null. */
export function useGloveClient(): GloveClient | null {
  return useContext(GloveClientContext);
}
