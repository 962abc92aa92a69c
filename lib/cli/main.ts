/**
 * The operator's command line: `npm run --silent cli -- <command>`. Also behind `npm start`,
 * `npm run dev`, `npm run build` and `npm test`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { PERMISSIONS } from "../auth/permissions.ts";
import { applyMigrations, createMigration } from "../db/migrate.ts";
import { disconnectDb } from "../db.ts";
import { bin, buildIfStale, database, ExitError, generate, ROOT } from "./tasks.ts";

const USAGE = `Usage: npm run --silent cli -- <command>

  start [--port N]                 migrate, then serve the API and dashboard (npm start)
  dev [--port N]                   the same with Next.js in development mode
  build                            generate the Prisma client and build Next.js
  migrate                          apply pending database migrations
  users create --email E --password P --role owner|admin|developer|viewer [--name N]
  api-keys create --name N (--all | --permissions p,q) [--expires-at DATE] [--description D]
                                   prints the key alone on standard output
  api-keys revoke ID
  seed                             demo data (idempotent)
  generate                         generate the Prisma client
  migrations create NAME [--from FILE]
                                   write a migration from the schema at FILE (default: git HEAD's) to the current one
  test                             the whole test suite (npm test)

DATABASE_URL selects the PostgreSQL server; without it an embedded one keeps its data in .data/.`;

async function migrate(url: string): Promise<void> {
  const applied = await applyMigrations(url);
  if (applied.length > 0) console.error(`Applied ${applied.length} migration(s): ${applied.join(", ")}`);
}

async function serve(mode: "start" | "dev", argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { port: { type: "string" } } });
  const port = values.port ?? process.env.PORT ?? "3000";
  await generate();
  const { url, embedded } = await database();
  let child: ChildProcess | undefined;
  const stop = async () => {
    await disconnectDb().catch(() => {});
    await embedded?.stop().catch(() => {});
  };
  try {
    await migrate(url);
    const { bootstrapIfEmpty } = await import("../services/bootstrap.ts");
    const { sessionSecret } = await import("../services/settings.ts");
    const first = await bootstrapIfEmpty();
    const secret = await sessionSecret();
    await disconnectDb();
    if (mode === "start") await buildIfStale();
    const publicUrl = process.env.PUBLIC_URL ?? `http://localhost:${port}`;
    if (first) {
      console.log(
        [
          "",
          "  First start: an owner login and a sandbox API key were created. They are shown only now.",
          `  Dashboard:  ${publicUrl}`,
          `  Email:      ${first.email}`,
          `  Password:   ${first.password}`,
          `  API key:    ${first.apiKey}`,
          `  API base:   ${publicUrl}/api`,
          "",
        ].join("\n"),
      );
    }
    child = spawn(bin("next"), [mode, "--port", port], {
      stdio: "inherit",
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: url,
        NEXTAUTH_SECRET: secret,
        NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? publicUrl,
        NEXT_TELEMETRY_DISABLED: "1",
      },
    });
    const forward = (signal: NodeJS.Signals) => () => child?.kill(signal);
    process.on("SIGINT", forward("SIGINT"));
    process.on("SIGTERM", forward("SIGTERM"));
    const code = await new Promise<number>((resolve) => child?.on("exit", (c) => resolve(c ?? 0)));
    return code;
  } finally {
    await stop();
  }
}

async function withDb<T>(fn: () => Promise<T>): Promise<T> {
  const { url, embedded } = await database();
  try {
    await migrate(url);
    return await fn();
  } finally {
    await disconnectDb().catch(() => {});
    await embedded?.stop().catch(() => {});
  }
}

async function usersCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== "create") throw new ExitError(2, USAGE);
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: "string" },
      password: { type: "string" },
      role: { type: "string" },
      name: { type: "string" },
    },
  });
  if (!values.email || !values.password || !values.role)
    throw new ExitError(2, "users create needs --email, --password and --role");
  await generate();
  return withDb(async () => {
    const { createUser } = await import("../services/users.ts");
    const user = await createUser({
      email: values.email!,
      password: values.password!,
      role: values.role!,
      name: values.name,
    });
    console.error(`Created ${user.role} login ${user.email} (${user.id}).`);
    return 0;
  });
}

async function apiKeysCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  await generate();
  if (sub === "create") {
    const { values } = parseArgs({
      args: rest,
      options: {
        name: { type: "string" },
        description: { type: "string" },
        all: { type: "boolean" },
        permissions: { type: "string" },
        "expires-at": { type: "string" },
      },
    });
    if (!values.name) throw new ExitError(2, "api-keys create needs --name");
    if (!values.all === !values.permissions)
      throw new ExitError(2, "api-keys create needs exactly one of --all or --permissions p,q");
    const { createApiKeyBody } = await import("../schemas/api-key.ts");
    const expires = values["expires-at"] ? new Date(values["expires-at"]) : undefined;
    if (expires && Number.isNaN(expires.getTime()))
      throw new ExitError(2, `--expires-at "${values["expires-at"]}" is not a date`);
    const parsed = createApiKeyBody.safeParse({
      name: values.name,
      description: values.description,
      permissions: values.all ? [...PERMISSIONS] : values.permissions!.split(",").map((p) => p.trim()),
      expires_at: expires?.toISOString(),
    });
    if (!parsed.success) {
      throw new ExitError(2, parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n"));
    }
    return withDb(async () => {
      const { createApiKey } = await import("../services/api-keys.ts");
      const key = await createApiKey(parsed.data);
      console.error(`Created API key ${key.id}. It is shown only now:`);
      console.log(key.key);
      return 0;
    });
  }
  if (sub === "revoke") {
    const id = rest[0];
    if (!id) throw new ExitError(2, "api-keys revoke needs the key's ID (apikey_…)");
    return withDb(async () => {
      const { revokeApiKey } = await import("../services/api-keys.ts");
      const key = await revokeApiKey(id);
      console.error(`Revoked API key ${key.id} (${key.name}).`);
      return 0;
    });
  }
  throw new ExitError(2, USAGE);
}

async function migrationsCommand(argv: string[]): Promise<number> {
  const [sub, name, ...rest] = argv;
  if (sub !== "create" || !name) throw new ExitError(2, USAGE);
  const { values } = parseArgs({ args: rest, options: { from: { type: "string" } } });
  const { readFileSync } = await import("node:fs");
  const { execFileSync } = await import("node:child_process");
  let from: string | null;
  if (values.from) from = readFileSync(values.from, "utf8");
  else {
    try {
      from = execFileSync("git", ["show", "HEAD:prisma/schema.prisma"], { cwd: ROOT, encoding: "utf8" });
    } catch {
      from = null;
    }
  }
  const { url, embedded } = await database();
  try {
    const dir = await createMigration(name, from, url);
    console.error(
      dir ? `Wrote ${path.relative(ROOT, dir)}/migration.sql` : "The schema has not changed: no migration written.",
    );
  } finally {
    await embedded?.stop();
  }
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "start":
    case "dev":
      return serve(command, rest);
    case "build":
      await generate();
      await buildIfStale(true);
      return 0;
    case "generate":
      await generate(true);
      return 0;
    case "migrate":
      await generate();
      return withDb(async () => 0);
    case "users":
      return usersCommand(rest);
    case "api-keys":
      return apiKeysCommand(rest);
    case "seed": {
      await generate();
      return withDb(async () => {
        const { seed } = await import("../services/seed.ts");
        const summary = await seed();
        console.error(summary);
        return 0;
      });
    }
    case "migrations":
      return migrationsCommand(rest);
    case "test": {
      const { runTests } = await import("./test.ts");
      return runTests(rest);
    }
    case undefined:
    case "help":
    case "--help":
      console.error(USAGE);
      return command ? 0 : 2;
    default:
      console.error(`Unknown command "${command}".\n\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ExitError) {
      console.error(error.message);
      process.exit(error.code);
    }
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
