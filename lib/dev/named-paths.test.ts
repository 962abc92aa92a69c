/**
 * Comments and documentation name files that exist (lib/dev/named-paths.ts), and cite decisions by
 * their name in docs/decisions/, not sections of a reference document outside the repository.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkedFiles, comments, exists, missingPaths, namedPaths } from "./named-paths.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

const texts = (file: string, text: string) => namedPaths(file, text).map((named) => named.text);

describe("paths named in comments", () => {
  it("finds paths in comments only, not in strings, regexes or JSX text", () => {
    const source = [
      "// see lib/http/route.ts.",
      'const a = "lib/not/a/comment.ts"; /* and (lib/errors.ts) */',
      'const r = /"/; // lib/ids.ts',
      "const el = <p>lib/in/jsx/text.ts {/* app/(dashboard)/layout.tsx */}</p>;",
      "const t = `// lib/in/template.ts`;",
    ].join("\n");
    expect(texts("a.tsx", source)).toEqual([
      "lib/http/route.ts",
      "lib/errors.ts",
      "lib/ids.ts",
      "app/(dashboard)/layout.tsx",
    ]);
  });

  it("reads SQL and Prisma comments, and skips URLs and other packages' paths", () => {
    expect(texts("m.sql", "SELECT 1; -- lib/db/sql.ts\n/* prisma/schema.prisma */")).toEqual([
      "lib/db/sql.ts",
      "prisma/schema.prisma",
    ]);
    expect(texts("s.prisma", "/// see docs/exports.md: /docs/api, @x/lib/y, node_modules/a/lib/b")).toEqual([
      "docs/exports.md",
    ]);
  });

  it("resolves Markdown links against the file's folder, and drops anchors", () => {
    const named = namedPaths(
      "docs/decisions/x.md",
      "[a](../architecture.md#layers) [b](https://x.org/lib/y) `lib/ids.ts`",
    );
    expect(named.map((n) => n.target)).toEqual(["docs/architecture.md", "lib/ids.ts"]);
  });

  it("matches placeholders and globs against what exists", () => {
    expect(exists(ROOT, "app/api/customers/{customer_id}/route.ts")).toBe(true);
    expect(exists(ROOT, "app/api/customers/[customer_id]/route.ts")).toBe(true);
    expect(exists(ROOT, "lib/schemas/<resource>.ts")).toBe(true);
    expect(exists(ROOT, "app/api/**/route.ts")).toBe(true);
    expect(exists(ROOT, "lib/services/…")).toBe(true);
    expect(exists(ROOT, "lib/services/")).toBe(true);
    expect(exists(ROOT, "lib/services/payments.ts")).toBe(false);
    expect(exists(ROOT, "app/api/{id}/nothing-here.ts")).toBe(false);
  });

  it("finds comments in every kind of checked file", () => {
    const files = checkedFiles(ROOT);
    expect(files).toContain("prisma/schema.prisma");
    expect(files).toContain("docs/architecture.md");
    expect(comments("lib/ids.ts", readFileSync(path.join(ROOT, "lib/ids.ts"), "utf8")).length).toBeGreaterThan(0);
  });
});

describe("the repository", () => {
  it("every lib/, app/, components/, e2e/, prisma/ and docs/ path named in a comment or a doc exists", () => {
    // A migration is history (never edited once applied): it names files as they were then.
    const missing = missingPaths(ROOT)
      .filter((named) => !named.file.startsWith("prisma/migrations/"))
      .map((named) => `${named.file}:${named.line} names ${named.text}`);
    expect(missing).toEqual([]);
  });

  /**
   * Comments cite a decision by name (docs/decisions/) or say the fact. Migrations are history:
   * an applied migration is never edited.
   */
  const HISTORY = /^prisma\/migrations\//;

  it("no comment cites a section of the outside reference (reference §N)", () => {
    const citing = checkedFiles(ROOT).filter((file) => {
      if (HISTORY.test(file) || file === "lib/dev/named-paths.test.ts") return false;
      const text = readFileSync(path.join(ROOT, file), "utf8");
      return /reference §|shared\/reference\/subscriptions|DESIGN\.md/.test(text);
    });
    expect(citing).toEqual([]);
  });
});
