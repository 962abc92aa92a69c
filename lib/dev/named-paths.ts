/**
 * The repository's files named in prose: in code comments (TypeScript, JavaScript, SQL, the Prisma
 * schema) and in the Markdown documentation. lib/dev/named-paths.test.ts checks that each one
 * exists, so a comment cannot keep pointing at a file that moved.
 *
 * A path is text starting with one of ROOTS (`lib/http/route.ts`, `app/(dashboard)/`, `docs/`)
 * not glued to a word or a `/` before it (`/docs/api` is a URL, `node_modules/x/lib/y` not ours).
 * Placeholders match one path segment or part of one: `{subscription_id}`, `<resource>`, `[id]`
 * where no folder has that literal name, and `…`. Globs `*` and `**` match as in a shell. A
 * Markdown link's target is resolved against the Markdown file's folder. Paths under a folder that
 * .gitignore lists (`e2e/screenshots/`, `lib/db/generated/`) are outputs, made by runs: not checked.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const ROOTS = ["lib", "app", "components", "e2e", "prisma", "docs"] as const;

/** Folders never walked: installed, built or generated files, and local data. */
const SKIPPED = new Set(["node_modules", ".next", ".git", ".data", "generated", "test-results", "playwright-report"]);

export interface NamedPath {
  /** The file that names it, relative to the repository. */
  file: string;
  line: number;
  /** As written, trailing punctuation removed. */
  text: string;
  /** Relative to the repository (a Markdown link's target resolved against its file's folder). */
  target: string;
}

const PATH_CHARS = String.raw`[\w.\-()\[\]{}<>*@+…/]`;
const NAMED = new RegExp(String.raw`(?<![\w/.\-@+])(?:${ROOTS.join("|")})/${PATH_CHARS}*`, "g");
const MODULE_EXTENSIONS = [".ts", ".tsx", ".js"];
const MARKDOWN_LINK = /\]\(([^)\s]+)\)/g;

/** Every source and documentation file under `root` whose prose is checked, relative to `root`. */
export function checkedFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      if (SKIPPED.has(entry.name) || entry.name.startsWith(".next")) continue;
      const relative = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(relative);
      else if (/\.(ts|tsx|js|mjs|cjs|sql|prisma|md)$/.test(entry.name)) files.push(relative);
    }
  };
  for (const top of ["README.md", ...ROOTS, "proxy.ts", "instrumentation.ts", "next.config.js"]) {
    if (!existsSync(path.join(root, top))) continue;
    if (statSync(path.join(root, top)).isDirectory()) walk(top);
    else files.push(top);
  }
  return files.sort();
}

/** The comments of a file as [offset, text] pairs. */
export function comments(file: string, text: string): [number, string][] {
  if (file.endsWith(".md")) return [[0, text]];
  if (file.endsWith(".sql")) return [...text.matchAll(/--[^\n]*|\/\*[\s\S]*?\*\//g)].map((m) => [m.index, m[0]]);
  if (file.endsWith(".prisma")) return [...text.matchAll(/\/\/[^\n]*/g)].map((m) => [m.index, m[0]]);
  return scriptComments(file, text);
}

/** Comments of TypeScript or JavaScript, found by the compiler's parser (not fooled by strings or regexes). */
function scriptComments(file: string, text: string): [number, string][] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : file.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found = new Map<number, string>();
  const collect = (position: number) => {
    const ranges = [
      ...(ts.getTrailingCommentRanges(text, position) ?? []),
      ...(ts.getLeadingCommentRanges(text, position) ?? []),
    ];
    for (const range of ranges) {
      found.set(range.pos, text.slice(range.pos, range.end));
    }
  };
  // A comment is trivia before or after some node; inside a node without children (an empty
  // block, `{/* … */}` in JSX) it follows the node's opening bracket. Text between JSX tags is no
  // trivia, so the edges of JSX children are skipped.
  const visit = (node: ts.Node) => {
    const inJsx = ts.isJsxElement(node.parent ?? node) || ts.isJsxFragment(node.parent ?? node);
    if (!inJsx && !ts.isJsxText(node)) {
      collect(node.pos);
      collect(node.end);
    }
    let children = 0;
    ts.forEachChild(node, (child) => {
      children++;
      visit(child);
    });
    const start = node.getStart(source);
    if (children === 0 && "{([".includes(text[start] ?? "")) collect(start + 1);
  };
  ts.forEachChild(source, visit);
  collect(source.endOfFileToken.pos);
  return [...found].sort(([a], [b]) => a - b);
}

/** Removes what ends a sentence rather than a path: a final `.`, an unmatched `)`, a `:42` line. */
function trimPath(raw: string): string {
  let text = raw.replace(/:\d+(-\d+)?$/, "");
  for (;;) {
    const before = text;
    text = text.replace(/[.,;:…]+$/, "");
    for (const [open, close] of [
      ["(", ")"],
      ["[", "]"],
      ["{", "}"],
      ["<", ">"],
    ] as const) {
      if (text.endsWith(close) && count(text, close) > count(text, open)) text = text.slice(0, -1);
    }
    if (text === before) return text;
  }
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

/** The repository paths named in one file. */
export function namedPaths(file: string, text: string): NamedPath[] {
  const named: NamedPath[] = [];
  const lineOf = (offset: number) => text.slice(0, offset).split("\n").length;
  for (const [offset, comment] of comments(file, text)) {
    let prose = comment;
    if (file.endsWith(".md")) {
      for (const link of comment.matchAll(MARKDOWN_LINK)) {
        const target = (link[1] ?? "").replace(/#.*$/, "");
        if (!target || /^[a-z]+:/i.test(target) || target.startsWith("/")) continue;
        const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), target));
        named.push({ file, line: lineOf(offset + link.index), text: link[1] ?? "", target: resolved });
      }
      prose = comment.replace(MARKDOWN_LINK, (link) => " ".repeat(link.length));
    }
    for (const match of prose.matchAll(NAMED)) {
      const written = trimPath(match[0]);
      named.push({ file, line: lineOf(offset + match.index), text: written, target: written });
    }
  }
  return named;
}

/** Whether `target` (relative to `root`) is a file or folder there, placeholders and globs matching. */
export function exists(root: string, target: string): boolean {
  const segments = target.replace(/\/+$/, "").split("/");
  const search = (dir: string, index: number): boolean => {
    if (index === segments.length) return true;
    const last = index === segments.length - 1;
    // A module named as an import names it, without its extension.
    if (last && MODULE_EXTENSIONS.some((extension) => existsSync(path.join(dir, `${segments[index]}${extension}`)))) {
      return true;
    }
    const segment = segments[index] ?? "";
    if (segment === "**") {
      if (search(dir, index + 1)) return true;
      return subfolders(dir).some((sub) => search(path.join(dir, sub), index));
    }
    const literal = path.join(dir, segment);
    if (existsSync(literal)) {
      if (index === segments.length - 1) return true;
      if (statSync(literal).isDirectory() && search(literal, index + 1)) return true;
    }
    const pattern = segmentPattern(segment);
    if (!pattern) return false;
    return entries(dir).some((name) => {
      if (!pattern.test(name)) return false;
      const next = path.join(dir, name);
      return index === segments.length - 1 || (statSync(next).isDirectory() && search(next, index + 1));
    });
  };
  return search(root, 0);
}

/** A segment's placeholders and globs as a regular expression, or null when it has none. */
function segmentPattern(segment: string): RegExp | null {
  const wild = /\{[^}]*\}|<[^>]*>|\[[^\]]*\]|\*|…/g;
  if (!wild.test(segment)) return null;
  const parts = segment.split(wild).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join(".*")}$`);
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => !SKIPPED.has(name));
  } catch {
    return [];
  }
}

function subfolders(dir: string): string[] {
  return entries(dir).filter((name) => statSync(path.join(dir, name)).isDirectory());
}

/** Folders .gitignore lists with a path (`e2e/screenshots/`): what runs write, not the repository's. */
function ignoredFolders(root: string): string[] {
  const gitignore = path.join(root, ".gitignore");
  if (!existsSync(gitignore)) return [];
  return readFileSync(gitignore, "utf8")
    .split("\n")
    .map((line) => line.trim().replace(/\/+$/, ""))
    .filter((line) => line.includes("/") && !/[*?!#]/.test(line));
}

/**
 * Every named path under `root` that does not exist. Parsing every file takes seconds, so a file
 * is parsed only when some text in it that looks like a path does not exist.
 */
export function missingPaths(root: string): NamedPath[] {
  const ignored = ignoredFolders(root);
  const checked = (target: string) => !ignored.some((folder) => target === folder || target.startsWith(`${folder}/`));
  return checkedFiles(root).flatMap((file) => {
    const text = readFileSync(path.join(root, file), "utf8");
    const suspect = [...text.matchAll(NAMED)].some((match) => !exists(root, trimPath(match[0])));
    if (!suspect && !file.endsWith(".md")) return [];
    return namedPaths(file, text).filter((named) => checked(named.target) && !exists(root, named.target));
  });
}
