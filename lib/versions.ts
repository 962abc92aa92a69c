/**
 * The versions of this API (the `Service-Version` header, and the `api_version` of notification
 * destinations). Apart from lib/http (route.ts needs the server), so that schemas used by the
 * dashboard's forms can check versions too.
 */
export const CURRENT_VERSION = 1;
export const SUPPORTED_VERSIONS: ReadonlySet<number> = new Set([1]);
