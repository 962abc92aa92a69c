/**
 * What proxy.ts (Next.js's request proxy, formerly middleware) does before Next.js routes a request.
 *
 * 1. A path that is not valid percent-encoded UTF-8 (`/api/customers/%ZZ`, `/customers/%ED%A0%80`)
 *    makes Next.js fail while matching it against a dynamic route (its decodeURIComponent throws;
 *    Next then tries to render a /400 page the App Router does not have, and answers a plain-text
 *    500 with no log line). The proxy runs before that matching, so it answers instead: 400
 *    bad_request in the API's error shape under /api and to an API client at the host root
 *    (lib/http/root-api.js, the rule next.config.js's rewrites follow), a small HTML page elsewhere.
 * 2. Strict-Transport-Security on pages when PUBLIC_URL is https: a runtime setting, which the
 *    build-time headers of next.config.js cannot follow. (API responses get it from the route
 *    wrapper.)
 */
import { NextResponse } from "next/server";
import { ApiError } from "../errors.ts";
import { apiErrorResponse, hstsHeader } from "./response.ts";
import { isRootApiRequest } from "./root-api.js";

/** Whether the path decodes: every `%` starts an escape, and the escapes spell UTF-8. */
export function decodablePath(pathname: string): boolean {
  if (!pathname.includes("%")) return true;
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

const BAD_PATH_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bad request</title></head>
<body><h1>400: Bad request</h1>
<p>This address is not valid: it has a malformed percent-encoding.</p>
<p><a href="/">Go to the dashboard</a></p></body></html>
`;

export function badPathResponse(pathname: string, headers: Headers = new Headers()): Response {
  if (pathname === "/api" || pathname.startsWith("/api/") || isRootApiRequest(pathname, headers)) {
    return apiErrorResponse(
      new ApiError("bad_request", "The request path is not valid percent-encoded UTF-8: no endpoint has it."),
    );
  }
  return new Response(BAD_PATH_PAGE, { status: 400, headers: { "content-type": "text/html; charset=utf-8" } });
}

export function proxy(pathname: string, headers: Headers = new Headers()): Response {
  if (!decodablePath(pathname)) return badPathResponse(pathname, headers);
  const response = NextResponse.next();
  const hsts = hstsHeader();
  if (hsts) response.headers.set("strict-transport-security", hsts);
  return response;
}
