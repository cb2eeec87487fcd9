/** CORS headers for an allowed cross-origin caller (credentials included); none otherwise. */
export function corsHeaders(request: Request, allowedOrigins: ReadonlySet<string>): Record<string, string> {
  const origin = request.headers.get("origin");
  if (!origin || !allowedOrigins.has(origin)) return {};
  return { "access-control-allow-origin": origin, "access-control-allow-credentials": "true", vary: "origin" };
}

/** The answer to a CORS preflight: allowed origins get the methods and headers the routes use. */
export function preflight(request: Request, allowedOrigins: ReadonlySet<string>): Response {
  const headers = corsHeaders(request, allowedOrigins);
  if (!headers["access-control-allow-origin"]) return new Response(null, { status: 403 });
  return new Response(null, {
    status: 204,
    headers: {
      ...headers,
      "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
      "access-control-allow-headers": "authorization, content-type, last-event-id",
      "access-control-max-age": "600",
    },
  });
}
