// One override of the agent factory, shared with Glove Studio's forks: it lives in glove-server.
export { applyOverride, type AgentOverride } from "glove-server";
