import { HttpError } from "../errors.js";

/** Who is calling. `id` owns the conversations they create; add whatever your app needs. */
export interface Principal {
  id: string;
  [key: string]: unknown;
}

/** Resolves the caller from the request (cookie, bearer token…), or null/undefined when unknown. */
export type Authenticate = (request: Request) => Principal | null | undefined | Promise<Principal | null | undefined>;

/** Runs the app's authenticate; anything but a principal with a non-empty string id is a 401. */
export async function requirePrincipal(authenticate: Authenticate, request: Request): Promise<Principal> {
  const principal = await authenticate(request);
  if (!principal || typeof principal !== "object" || typeof principal.id !== "string" || principal.id === "") {
    throw new HttpError(401, "GLOVE_UNAUTHENTICATED", "Sign in first: this request carries no valid credentials.");
  }
  return principal;
}
