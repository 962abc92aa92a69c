import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { completeLock, type Lock, platformOf } from "./complete-lock.ts";

describe("completing the lock file with other systems' platform packages", () => {
  it("reads a platform package's system, processor and C library from its name", () => {
    expect(platformOf("@next/swc-darwin-arm64")).toEqual({ os: ["darwin"], cpu: ["arm64"] });
    expect(platformOf("@next/swc-linux-x64-gnu")).toEqual({ os: ["linux"], cpu: ["x64"], libc: ["glibc"] });
    expect(platformOf("@biomejs/cli-linux-arm64-musl")).toEqual({ os: ["linux"], cpu: ["arm64"], libc: ["musl"] });
    expect(platformOf("@tailwindcss/oxide-win32-x64-msvc")).toEqual({ os: ["win32"], cpu: ["x64"] });
    expect(platformOf("@tailwindcss/oxide-wasm32-wasi")).toEqual({ cpu: ["wasm32"] });
    expect(platformOf("some-helper")).toBeUndefined();
  });

  it("adds what is missing, at the version asked for, hoisted as npm would put it", () => {
    const lock: Lock = {
      packages: {
        "": { name: "app" },
        "node_modules/tool": {
          version: "2.0.0",
          dev: true,
          optionalDependencies: { "@tool/cli-linux-x64": "2.0.0", "@tool/cli-darwin-arm64": "2.0.0" },
        },
        "node_modules/@tool/cli-linux-x64": {
          version: "2.0.0",
          dev: true,
          optional: true,
          os: ["linux"],
          cpu: ["x64"],
        },
        "node_modules/a/node_modules/b": { version: "1.0.0", optionalDependencies: { "b-win32-x64": "1.0.0" } },
      },
    };
    expect(completeLock(lock)).toEqual(["@tool/cli-darwin-arm64@2.0.0", "b-win32-x64@1.0.0"]);
    expect(lock.packages["node_modules/@tool/cli-darwin-arm64"]).toEqual({
      version: "2.0.0",
      cpu: ["arm64"],
      dev: true,
      optional: true,
      os: ["darwin"],
    });
    expect(lock.packages["node_modules/b-win32-x64"]).toMatchObject({ version: "1.0.0" });
    expect(Object.keys(lock.packages)[0]).toBe("");
    expect(completeLock(lock)).toEqual([]);
  });

  it("refuses to guess a package that is not a platform package or has no exact version", () => {
    const lock: Lock = { packages: { "": { optionalDependencies: { fsevents: "^2.3.0" } } } };
    expect(() => completeLock(lock)).toThrow(/fsevents@\^2\.3\.0/);
  });

  it("leaves the committed lock file with nothing missing (npm ci accepts it)", () => {
    const file = path.resolve(import.meta.dirname, "../../package-lock.json");
    expect(completeLock(JSON.parse(fs.readFileSync(file, "utf8")) as Lock)).toEqual([]);
  });
});
