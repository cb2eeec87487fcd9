import { GloveError } from "glove-core";

/**
 * A feature of glove-server needs a package the app has not installed. PostgreSQL storage and the
 * Redis scale mode are optional peers, so an app on SQLite pulls none of their drivers; the
 * message names the package and the command that installs what the feature needs.
 */
export class MissingDependencyError extends GloveError {
  /** The package that could not be found, e.g. "bullmq". */
  readonly packageName: string;
  /** What asked for it, e.g. "glove-server/redis (the scale mode)". */
  readonly feature: string;
  /** The command that installs every package the feature needs. */
  readonly installCommand: string;

  constructor(feature: string, packageName: string, packages: readonly string[], cause?: unknown) {
    const installCommand = `npm install ${packages.join(" ")}`;
    super(
      `${feature} needs the "${packageName}" package, which is not installed: glove-server lists it as an optional peer, ` +
        `so apps that do not use this feature go without it. Install it in your app: ${installCommand}`,
      { code: "GLOVE_MISSING_DEPENDENCY", cause },
    );
    this.name = "MissingDependencyError";
    this.packageName = packageName;
    this.feature = feature;
    this.installCommand = installCommand;
  }

  static override isInstance(error: unknown): error is MissingDependencyError {
    return GloveError.isInstance(error) && error.code === "GLOVE_MISSING_DEPENDENCY";
  }
}

/** The package a "module not found" error names, when it is one of `packages` (Node's ERR_MODULE_NOT_FOUND wording). */
function missingPackage(error: unknown, packages: readonly string[]): string | undefined {
  if (typeof error !== "object" || error === null || (error as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND")
    return undefined;
  const message = String((error as { message?: unknown }).message);
  return packages.find((name) => message.includes(`'${name}'`) || message.includes(`"${name}"`));
}

/**
 * Loads a feature's optional packages (each `load` is a literal `import("…")`, so bundlers and
 * types see it). One that is missing fails with a MissingDependencyError; anything else (a broken
 * install, an error while the package loads) is rethrown as it is.
 */
export async function importOptional<T extends readonly unknown[]>(
  feature: string,
  packages: readonly string[],
  load: { [K in keyof T]: () => Promise<T[K]> },
): Promise<T> {
  const loaded: unknown[] = [];
  // One after the other, so the first missing package named is always the same one.
  for (const loader of load) {
    try {
      loaded.push(await loader());
    } catch (error) {
      const name = missingPackage(error, packages);
      if (name) throw new MissingDependencyError(feature, name, packages, error);
      throw error;
    }
  }
  return loaded as unknown as T;
}
