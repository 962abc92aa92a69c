/**
 * Column names fail only at run time: these tests make them fail here instead, against a migrated
 * database (the template of every test's), which is what schema.prisma and the migrations made.
 *
 * - Every entity of lib/db/entities (with every `include` and order) is planned by PostgreSQL, so
 *   each column its SQL names exists.
 * - Every hand-written row type of a SELECT, `query<{ … }>(sql)` or `query<Row>(sql)` with `Row`
 *   declared in the same file, anywhere in lib/ and app/: each key is a column the SELECT returns,
 *   with a type that node-postgres reads into what the key declares (int8 and numeric arrive as
 *   strings, timestamps as Dates, json as objects).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EntityTable, jsonObject } from "./sql.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ENTITIES_DIR = path.join(import.meta.dirname, "entities");

let client: pg.Client;

beforeAll(async () => {
  client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
});

afterAll(() => client.end());

/** PostgreSQL's error for `sql`, or null when it plans: every table and column it names exists. */
async function planError(sql: string, params = 0): Promise<string | null> {
  try {
    await client.query(
      `EXPLAIN ${sql}`,
      Array.from({ length: params }, () => null),
    );
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function isEntity(value: unknown): value is EntityTable {
  return typeof value === "object" && value !== null && "table" in value && "fields" in value;
}

/** An `include` that asks for everything, whichever names an entity's includes have. */
function everyInclude(): string[] {
  const names = ["address", "adjustment", "adjustments", "available_payment_methods", "business", "customer"];
  names.push("discount", "discount_group", "prices", "product", "revision", "runs", "events");
  return Object.assign(names, { includes: () => true });
}

async function entityVariants(): Promise<Map<string, EntityTable>> {
  const variants = new Map<string, EntityTable>();
  for (const file of readdirSync(ENTITIES_DIR).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
    const module: Record<string, unknown> = await import(path.join(ENTITIES_DIR, file));
    for (const [name, value] of Object.entries(module)) {
      if (isEntity(value)) variants.set(`${file} ${name}`, value);
      if (typeof value !== "function") continue;
      // The entity builders: by `include` (transactionEntity, productEntity…) or by a flag.
      for (const argument of [everyInclude(), undefined, true, false]) {
        let built: unknown;
        try {
          built = (value as (argument: unknown) => unknown)(argument);
        } catch {
          continue;
        }
        if (isEntity(built)) variants.set(`${file} ${name}(${JSON.stringify(argument)})`, built);
      }
    }
  }
  return variants;
}

describe("the entities name columns that exist", () => {
  it("every entity's fields, includes and orders plan on the migrated database", async () => {
    const variants = await entityVariants();
    expect(variants.size).toBeGreaterThan(20);
    const errors: Record<string, string> = {};
    for (const [name, entity] of variants) {
      const orders = Object.values(entity.orderColumns ?? {});
      const select = [jsonObject(entity), ...orders].join(", ");
      const error = await planError(`SELECT ${select} FROM ${entity.table} t`);
      if (error) errors[name] = error;
    }
    expect(errors).toEqual({});
  });
});

interface RowType {
  where: string;
  sql: string;
  keys: { name: string; type: string }[];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The row types of `query<T>(sql)` calls whose SQL is one literal SELECT. */
function rowTypes(file: string): RowType[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const declared = new Map<string, ts.NodeArray<ts.TypeElement>>();
  const found: RowType[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isInterfaceDeclaration(node) && !node.heritageClauses) declared.set(node.name.text, node.members);
    if (ts.isTypeAliasDeclaration(node) && ts.isTypeLiteralNode(node.type))
      declared.set(node.name.text, node.type.members);
    ts.forEachChild(node, visit);
  };
  visit(source);
  const collect = (node: ts.Node) => {
    if (ts.isCallExpression(node) && node.typeArguments?.length === 1) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee)
        ? callee.text
        : ts.isPropertyAccessExpression(callee)
          ? callee.name.text
          : "";
      const [typeArgument] = node.typeArguments;
      const [first] = node.arguments;
      const members =
        typeArgument && ts.isTypeLiteralNode(typeArgument)
          ? typeArgument.members
          : typeArgument && ts.isTypeReferenceNode(typeArgument) && ts.isIdentifier(typeArgument.typeName)
            ? declared.get(typeArgument.typeName.text)
            : undefined;
      if (name === "query" && members && first && ts.isStringLiteralLike(first) && /^\s*select\b/i.test(first.text)) {
        const keys = members.filter(ts.isPropertySignature).map((member) => ({
          name: member.name.getText(source).replace(/^["']|["']$/g, ""),
          type: member.type?.getText(source) ?? "unknown",
        }));
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        found.push({ where: `${path.relative(ROOT, file)}:${line + 1}`, sql: first.text, keys });
      }
    }
    ts.forEachChild(node, collect);
  };
  collect(source);
  return found;
}

/** What node-postgres makes of each PostgreSQL type, as the TypeScript it may be declared as. */
function readsAs(dataType: string): string[] {
  switch (dataType) {
    case "int2":
    case "int4":
    case "float4":
    case "float8":
    case "oid":
      return ["number"];
    case "bool":
      return ["boolean"];
    case "timestamptz":
    case "timestamp":
    case "date":
      return ["Date"];
    case "json":
    case "jsonb":
      return ["object", "array", "number", "string", "boolean"];
    case "bytea":
      return ["Buffer"];
    default:
      // text, varchar, uuid, int8 and numeric (exact, so strings), enums, intervals…
      return dataType.startsWith("_") ? ["array"] : ["string"];
  }
}

/** What a declared TypeScript type can hold, roughly: enough to tell a number from a string. */
function declaredAs(type: string): string[] | null {
  const kinds = new Set<string>();
  for (const part of type.split("|").map((p) => p.trim())) {
    if (part === "null" || part === "undefined") continue;
    if (part === "string" || /^["'`]/.test(part)) kinds.add("string");
    else if (part === "number" || /^-?\d/.test(part)) kinds.add("number");
    else if (part === "boolean" || part === "true" || part === "false") kinds.add("boolean");
    else if (part === "Date") kinds.add("Date");
    else if (part === "Buffer") kinds.add("Buffer");
    else if (part.endsWith("[]") || part.startsWith("Array<") || part.startsWith("readonly ")) kinds.add("array");
    else if (part.startsWith("{") || part.startsWith("Record<")) kinds.add("object");
    else return null; // unknown, a named type: anything
  }
  return [...kinds];
}

describe("the row types name the columns their SELECT returns", () => {
  const files = [...sourceFiles(path.join(ROOT, "lib")), ...sourceFiles(path.join(ROOT, "app"))];
  const found = files.flatMap(rowTypes);

  it("finds the row types to check", () => {
    expect(found.length).toBeGreaterThan(50);
  });

  it("each key is a returned column of a compatible type", async () => {
    const problems: string[] = [];
    let checked = 0;
    await client.query("BEGIN");
    try {
      const types = new Map<number, string>(
        (await client.query<{ oid: number; typname: string }>("SELECT oid, typname FROM pg_type")).rows.map((row) => [
          row.oid,
          row.typname,
        ]),
      );
      for (const row of found) {
        const params = Math.max(0, ...[...row.sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
        let fields: pg.FieldDef[];
        try {
          await client.query("SAVEPOINT row_type");
          const result = await client.query(
            `SELECT * FROM (${row.sql}) q LIMIT 0`,
            Array.from({ length: params }, () => null),
          );
          fields = result.fields;
          await client.query("RELEASE SAVEPOINT row_type");
        } catch (error) {
          await client.query("ROLLBACK TO SAVEPOINT row_type");
          const message = error instanceof Error ? error.message : String(error);
          // A parameter whose type only its value says: the statement is fine, just not checkable so.
          if (/could not determine data type of parameter/.test(message)) continue;
          problems.push(`${row.where}: ${message}`);
          continue;
        }
        checked++;
        const columns = new Map(fields.map((field) => [field.name, types.get(field.dataTypeID) ?? "?"]));
        for (const key of row.keys) {
          const column = columns.get(key.name);
          if (column === undefined) {
            problems.push(`${row.where}: ${key.name} is not a column of the SELECT`);
            continue;
          }
          const declared = declaredAs(key.type);
          if (declared && !readsAs(column).some((kind) => declared.includes(kind))) {
            problems.push(
              `${row.where}: ${key.name} is ${column}, read as ${readsAs(column)[0]}, declared ${key.type}`,
            );
          }
        }
      }
    } finally {
      await client.query("ROLLBACK");
    }
    expect(checked).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  });
});
