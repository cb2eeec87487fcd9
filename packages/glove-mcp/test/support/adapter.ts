import type { McpAdapter } from "glove-mcp";

/** An in-memory adapter with switchable tokens. */
export class TestAdapter implements McpAdapter {
  readonly active = new Set<string>();
  readonly tokens = new Map<string, string>();
  readonly tokenRequests: string[] = [];
  constructor(readonly identifier = "test-convo") {}
  async getActive() {
    return [...this.active];
  }
  async activate(id: string) {
    this.active.add(id);
  }
  async deactivate(id: string) {
    this.active.delete(id);
  }
  async getAccessToken(id: string) {
    this.tokenRequests.push(id);
    const token = this.tokens.get(id);
    if (token === undefined) throw new Error(`No token for "${id}"`);
    return token;
  }
}
