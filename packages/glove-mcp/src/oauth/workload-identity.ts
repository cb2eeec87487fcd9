import { JwtBearerGrantProvider, type AssertionAudience, type JwtBearerClientOptions } from "./jwt-bearer-grant.js";

/** Options of `WorkloadIdentityProvider`: the client registration and where the workload's JWT comes from. */
export interface WorkloadIdentityProviderOptions extends JwtBearerClientOptions {
  /**
   * The workload's identity token (a Kubernetes service-account token, a cloud's OIDC token, a
   * CI job's ID token), whose audience is the MCP server's authorization server. A function is
   * asked for each token request, so short-lived tokens are read fresh from their file or endpoint.
   */
  assertion: string | ((audience: AssertionAudience) => string | Promise<string>);
}

/**
 * Workload identity federation (SEP-1933): a service with no user and no client secret trades
 * the identity token its platform issues for an MCP access token with RFC 7523's JWT-bearer
 * grant. Pass it as `connectMcp`'s `authProvider`.
 */
export class WorkloadIdentityProvider extends JwtBearerGrantProvider {
  constructor(private readonly options: WorkloadIdentityProviderOptions) {
    super(options);
  }

  protected async assertion(audience: AssertionAudience): Promise<string> {
    const { assertion } = this.options;
    return typeof assertion === "string" ? assertion : await assertion(audience);
  }
}
