import type { DefineSkillArgs } from "../types/index.js";

/**
 * The skills defined on one Glove. `allowed` (from the agent's scope) limits
 * which ones bind or can be invoked; undefined allows all.
 */
export class SkillRegistry {
  private readonly skills = new Map<string, DefineSkillArgs>();
  allowed: ReadonlySet<string> | undefined;

  define(args: DefineSkillArgs): void {
    this.skills.set(args.name, args);
  }

  /** A skill that exists and is in scope. */
  has(name: string): boolean {
    return this.skills.has(name) && (!this.allowed || this.allowed.has(name));
  }

  get(name: string): DefineSkillArgs | undefined {
    return this.has(name) ? this.skills.get(name) : undefined;
  }

  /** In-scope skills the model may invoke, in definition order. */
  exposed(): DefineSkillArgs[] {
    return [...this.skills.values()].filter((s) => s.exposeToAgent && this.has(s.name));
  }

  /** Every in-scope skill, in definition order. */
  available(): DefineSkillArgs[] {
    return [...this.skills.values()].filter((s) => this.has(s.name));
  }
}
