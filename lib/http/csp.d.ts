/** Types of lib/http/csp.js (plain JavaScript: next.config.js imports it). */
export interface StripeOrigins {
  script: string[];
  connect: string[];
  frame: string[];
}
export declare const STRIPE_ORIGINS: StripeOrigins;
export declare const STRIPE_PAGES: string[];
export declare function stripeOrigins(jsUrl: string | undefined | null): StripeOrigins;
export declare function contentSecurityPolicy(options?: { dev?: boolean; stripe?: StripeOrigins | null }): string;
