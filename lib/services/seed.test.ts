/**
 * The demo data (`cli seed`): customers, catalogue and transactions through the services, with
 * the revenue rollup dated back over two months; a second run adds nothing.
 */
import { describe, expect, it } from "vitest";
import { query } from "../db/sql.ts";
import { seed } from "./seed.ts";

describe("seed", () => {
  it("adds customers, products and transactions once, with a revenue history", async () => {
    expect(await seed()).toMatch(/^Added 8 demo customer\(s\).*3 product\(s\).*33 transaction\(s\)\.$/);
    const statuses = await query<{ status: string; n: string }>(
      "SELECT status, count(*)::text AS n FROM transactions GROUP BY status ORDER BY status",
    );
    expect(Object.fromEntries(statuses.map((r) => [r.status, Number(r.n)]))).toEqual({ billed: 1, completed: 32 });
    const [days] = await query<{ days: string; count: string }>(
      "SELECT count(*)::text AS days, sum(count)::text AS count FROM revenue_daily",
    );
    expect(Number(days!.count)).toBe(32);
    expect(Number(days!.days)).toBeGreaterThan(20);
    const [refunds] = await query<{ n: string }>("SELECT count(*)::text AS n FROM adjustments WHERE action = 'refund'");
    expect(refunds!.n).toBe("1");

    expect(await seed()).toBe("The demo data is already there: nothing added.");
    const [total] = await query<{ n: string }>("SELECT count(*)::text AS n FROM transactions");
    expect(total!.n).toBe("33");
  });
});
