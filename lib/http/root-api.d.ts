/** Types of lib/http/root-api.js (plain JavaScript: next.config.js imports it). */
export interface RootApiRewrite {
  source: string;
  has: { type: "header"; key: string; value: string }[];
  missing: { type: "header"; key: string }[];
  destination: string;
}
export declare const ROOT_API_SOURCE: string;
export declare const BEARER_VALUE: string;
export declare const ACCEPT_JSON_VALUE: string;
export declare const NEXT_INTERNAL_HEADERS: readonly string[];
export declare const rootApiRewrites: RootApiRewrite[];
export declare function isRootApiRequest(pathname: string, headers: { get(name: string): string | null }): boolean;
