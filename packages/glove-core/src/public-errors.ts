/**
 * Public entry of the `glove-core/errors` subpath: the typed errors alone, for code that only
 * checks them (a browser client). Importing them from the root works too, but a bundler that
 * splits code (esbuild) then loads the whole runtime with the page: the root module is shared
 * with any lazily loaded part that uses the loop, and its re-exports come along with it.
 */
export * from "./errors.js";
export { BranchError, type BranchRefusal } from "./branches/branch-error.js";
