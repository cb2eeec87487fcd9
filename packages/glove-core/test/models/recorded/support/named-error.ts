/**
 * Base of the replay support's errors. `isInstance` checks the subclass's name rather than
 * `instanceof`, so it holds when a test and the support load separate copies of a module.
 */
export class NamedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }

  static isInstance<T extends abstract new (...args: never[]) => Error>(
    this: T,
    value: unknown,
  ): value is InstanceType<T> {
    return value instanceof Error && value.name === this.name;
  }
}
