/**
 * Codemod: makes the test files compile under `noUncheckedIndexedAccess` by asserting, with `!`,
 * the values the tests already take to exist (`rows[0].id` → `rows[0]!.id`, `row.id` → `row!.id`
 * after `const [row] = …`). A `!` has no run-time effect, so no assertion changes meaning.
 *
 *   npx tsx lib/dev/codemods/non-null-index.ts          # fix every test file
 *   npx tsx lib/dev/codemods/non-null-index.ts --check  # list what it would fix, change nothing
 *   npx tsx lib/dev/codemods/non-null-index.ts --also=lib/dev/  # and the files under lib/dev/ too
 *
 * Test files: *.test.ts(x), e2e/**, lib/dev/test/**, and the folders named by --also. Production
 * code is fixed by hand (a missing row there is a not-found error or a bug: see queryOne and
 * queryExactlyOne in lib/db/sql.ts).
 *
 * How: compiles the project with the flag on (tsconfig.json otherwise as is), reads the errors of
 * test files, and for each inserts `!` after the expression it points at, when that expression's
 * type includes undefined; where the error names a whole expression whose parts are the undefined
 * ones (an object literal, a callback's return), the index accesses and destructured names inside
 * it. `const [{ n }] = await query(…)` (a pattern `!` cannot reach) becomes
 * `const { n } = (await query(…))[0]!`; inside an optional chain the next access is made optional
 * (`errors?.[0]?.message`), as Biome refuses `errors?.[0]!`. It repeats, re-checking only the
 * files it changed (all of them after a change to a shared helper), until no error is left that
 * it can fix, then formats the files it changed with Biome. Idempotent: a second run finds nothing
 * to do. Errors it cannot fix (an undefined that comes from an inferred declaration elsewhere)
 * are listed at the end, to be fixed by hand; the exit code is then 1. One full check of the
 * project takes a few minutes, like `tsc`.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "../../..");
const checkOnly = process.argv.includes("--check");
/** More folders to fix (`--also=lib/dev/`): test tooling, where `!` is as fine as in tests. */
const alsoUnder = process.argv.filter((arg) => arg.startsWith("--also=")).map((arg) => arg.slice("--also=".length));

/** The diagnostics the flag causes in code that compiled without it. */
const FIXABLE = new Set([2532, 18048, 2345, 2322, 2339, 2538, 2769, 2488, 18047, 2531]);

function isTestFile(file: string): boolean {
  const relative = path.relative(root, file).split(path.sep).join("/");
  if (relative.startsWith("node_modules/") || relative.startsWith("..")) return false;
  if (alsoUnder.some((prefix) => relative.startsWith(prefix))) return true;
  return /\.test\.tsx?$/.test(relative) || relative.startsWith("e2e/") || relative.startsWith("lib/dev/test/");
}

function compilerOptions(): { options: ts.CompilerOptions; fileNames: string[] } {
  const configPath = path.join(root, "tsconfig.json");
  const config = ts.readConfigFile(configPath, (file) => ts.sys.readFile(file));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return {
    options: { ...parsed.options, noUncheckedIndexedAccess: true, noEmit: true, incremental: false },
    fileNames: parsed.fileNames,
  };
}

/** An insertion (`start === end`) or a replacement of the text in [start, end). */
interface Edit {
  start: number;
  end: number;
  text: string;
}

function includesUndefined(checker: ts.TypeChecker, node: ts.Node): boolean {
  const type = checker.getTypeAtLocation(node);
  const parts = type.isUnion() ? type.types : [type];
  return parts.some((part) => (part.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) !== 0);
}

/** Expressions that take a postfix `!` without parentheses. */
function isPostfixable(node: ts.Expression): boolean {
  return (
    ts.isIdentifier(node) ||
    ts.isPropertyAccessExpression(node) ||
    ts.isElementAccessExpression(node) ||
    ts.isCallExpression(node) ||
    ts.isParenthesizedExpression(node) ||
    ts.isNonNullExpression(node) ||
    node.kind === ts.SyntaxKind.ThisKeyword
  );
}

function assertDefined(node: ts.Expression, file: ts.SourceFile): Edit[] {
  // `a!` already there (a previous round, or a second diagnostic on the same node): nothing to add.
  if (ts.isNonNullExpression(node.parent) || file.text[node.getEnd()] === "!") return [];
  if (ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node) {
    return [{ start: node.getEnd(), end: node.getEnd(), text: `: ${node.getText(file)}!` }];
  }
  const chained = continuedChain(node, file);
  if (chained) return [chained];
  if (isPostfixable(node)) return [{ start: node.getEnd(), end: node.getEnd(), text: "!" }];
  return [
    { start: node.getStart(file), end: node.getStart(file), text: "(" },
    { start: node.getEnd(), end: node.getEnd(), text: ")!" },
  ];
}

/**
 * Inside an optional chain (`errors?.[0].message`), `!` is what Biome's noNonNullAssertedOptionalChain
 * refuses: the access after `node` is made optional instead (`errors?.[0]?.message`). A missing
 * element then fails the test's expectation (undefined) instead of throwing a TypeError: it fails
 * either way, and a passing test passes the same.
 */
function continuedChain(node: ts.Expression, file: ts.SourceFile): Edit | null {
  if (!ts.isOptionalChain(node)) return null;
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.expression === node && !parent.questionDotToken) {
    const dot = file.text.lastIndexOf(".", parent.name.getStart(file));
    return dot >= node.getEnd() ? { start: dot, end: dot, text: "?" } : null;
  }
  if (ts.isElementAccessExpression(parent) && parent.expression === node && !parent.questionDotToken) {
    const bracket = file.text.indexOf("[", node.getEnd());
    return bracket >= 0 && bracket < parent.argumentExpression.getStart(file)
      ? { start: bracket, end: bracket, text: "?." }
      : null;
  }
  return null;
}

/**
 * The outermost expression whose span is exactly the diagnostic's; for a span that is a keyword
 * (`return`), the innermost node around it (the return statement).
 */
function nodeAt(file: ts.SourceFile, start: number, length: number): ts.Node | undefined {
  let found: ts.Node | undefined;
  let around: ts.Node | undefined;
  const visit = (node: ts.Node): void => {
    const nodeStart = node.getStart(file);
    if (nodeStart > start || node.getEnd() < start + length) return;
    if (nodeStart === start && node.getEnd() === start + length && !found) found = node;
    around = node;
    ts.forEachChild(node, visit);
  };
  visit(file);
  // The innermost node with that span, climbed to the outermost expression with the same span.
  let node = found;
  if (!node) return around === file ? undefined : around;
  const innermost = (n: ts.Node): ts.Node => {
    let inner = n;
    ts.forEachChild(n, (child) => {
      if (child.getStart(file) === start && child.getEnd() === start + length) inner = innermost(child);
    });
    return inner;
  };
  node = innermost(node);
  while (
    node.parent &&
    node.parent.getStart(file) === start &&
    node.parent.getEnd() === start + length &&
    ts.isExpression(node.parent)
  ) {
    node = node.parent;
  }
  return node;
}

/** The value a diagnostic on a name or keyword is about: `x` in `const x: T = value`, `return value`. */
function targetValue(node: ts.Node): ts.Expression | undefined {
  const parent = node.parent;
  if (!parent) return undefined;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyDeclaration(parent)) && parent.name === node) {
    return parent.initializer;
  }
  if (ts.isPropertyAssignment(parent) && parent.name === node) return parent.initializer;
  if (ts.isShorthandPropertyAssignment(parent) && parent.name === node) return parent.name;
  if (ts.isJsxAttribute(parent) && parent.name === node) {
    const init = parent.initializer;
    return init && ts.isJsxExpression(init) ? init.expression : undefined;
  }
  if (ts.isReturnStatement(node)) return node.expression;
  if (ts.isReturnStatement(parent) && node.kind === ts.SyntaxKind.ReturnKeyword) return parent.expression;
  if (
    ts.isBinaryExpression(parent) &&
    parent.left === node &&
    parent.operatorToken.kind === ts.SyntaxKind.EqualsToken
  ) {
    return parent.right;
  }
  return undefined;
}

/** Whether `node` is a name destructured from something (`row` of `const [row] = …`). */
function isDestructuredName(checker: ts.TypeChecker, node: ts.Identifier): boolean {
  const symbol = checker.getSymbolAtLocation(node);
  return symbol?.declarations?.some((declaration) => ts.isBindingElement(declaration)) ?? false;
}

/** Inside `node`, the index accesses and destructured names whose type includes undefined. */
function undefinedParts(checker: ts.TypeChecker, node: ts.Node, file: ts.SourceFile): ts.Expression[] {
  const parts: ts.Expression[] = [];
  const visit = (child: ts.Node): void => {
    if (ts.isFunctionLike(child) && child !== node) {
      // A callback's parameters are not the culprits; its body's accesses may be.
      ts.forEachChild(child, visit);
      return;
    }
    const candidate =
      ts.isElementAccessExpression(child) ||
      ts.isPropertyAccessExpression(child) ||
      (ts.isIdentifier(child) &&
        !ts.isPropertyAccessExpression(child.parent) &&
        !ts.isBindingElement(child.parent) &&
        !ts.isPropertyAssignment(child.parent) &&
        isDestructuredName(checker, child));
    if (candidate && ts.isExpression(child) && includesUndefined(checker, child) && !isCallee(child)) {
      parts.push(child);
      return;
    }
    ts.forEachChild(child, visit);
  };
  ts.forEachChild(node, visit);
  void file;
  return parts;
}

function isCallee(node: ts.Node): boolean {
  return ts.isCallExpression(node.parent) && node.parent.expression === node;
}

/**
 * A property destructured from a possibly-undefined value: `const { a } = list[i]` gets
 * `list[i]!`; `const [{ a }] = rows` is unwrapped (below).
 */
function destructuredEdits(checker: ts.TypeChecker, node: ts.Node, file: ts.SourceFile): Edit[] {
  let binding: ts.Node | undefined = node;
  while (binding && !ts.isObjectBindingPattern(binding)) binding = binding.parent;
  const declaration = binding?.parent;
  if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer) {
    const value = declaration.initializer;
    return includesUndefined(checker, value) ? assertDefined(value, file) : [];
  }
  return unwrapFirstElement(node, file);
}

/** `const [{ a, b }] = value` → `const { a, b } = (value)[0]!` (a pattern a `!` cannot reach). */
function unwrapFirstElement(node: ts.Node, file: ts.SourceFile): Edit[] {
  let binding: ts.Node | undefined = node;
  while (binding && !ts.isObjectBindingPattern(binding)) binding = binding.parent;
  const element = binding?.parent;
  const array = element?.parent;
  const declaration = array?.parent;
  if (!binding || !element || !array || !declaration) return [];
  if (!ts.isBindingElement(element) || !ts.isArrayBindingPattern(array) || array.elements.length !== 1) return [];
  if (!ts.isVariableDeclaration(declaration) || !declaration.initializer || element.initializer) return [];
  const value = declaration.initializer;
  const valueText = value.getText(file);
  const wrapped = isPostfixable(value) ? `${valueText}[0]!` : `(${valueText})[0]!`;
  return [
    { start: array.getStart(file), end: array.getEnd(), text: binding.getText(file) },
    { start: value.getStart(file), end: value.getEnd(), text: wrapped },
  ];
}

function editsFor(checker: ts.TypeChecker, file: ts.SourceFile, diagnostic: ts.Diagnostic): Edit[] {
  if (diagnostic.start === undefined || diagnostic.length === undefined) return [];
  const node = nodeAt(file, diagnostic.start, diagnostic.length);
  if (!node) return [];
  if (diagnostic.code === 2339) return destructuredEdits(checker, node, file);
  if (ts.isExpression(node) && !ts.isObjectLiteralExpression(node) && includesUndefined(checker, node)) {
    return assertDefined(node, file);
  }
  const value = targetValue(node) ?? (ts.isExpression(node) ? node : undefined);
  if (!value) return [];
  if (includesUndefined(checker, value) && !ts.isObjectLiteralExpression(value)) return assertDefined(value, file);
  return undefinedParts(checker, value, file).flatMap((part) => assertDefined(part, file));
}

function sameEdit(a: Edit, b: Edit): boolean {
  return a.start === b.start && a.end === b.end && a.text === b.text;
}

/** Whether two edits touch the same text: a replacement and anything within or across its range. */
function conflict(a: Edit, b: Edit): boolean {
  if (a.start === a.end && b.start === b.end) return false;
  if (a.start === a.end) return a.start > b.start && a.start < b.end;
  if (b.start === b.end) return b.start > a.start && b.start < a.end;
  return a.start < b.end && b.start < a.end;
}

/**
 * Applies each diagnostic's group of edits (`(` and `)!`; a pattern and its value) whole or not at
 * all: a group that conflicts with one taken before waits for the next round.
 */
function applyEdits(text: string, groups: Edit[][]): string {
  const taken: Edit[] = [];
  for (const group of groups) {
    const fresh = group.filter((edit) => !taken.some((other) => sameEdit(edit, other)));
    if (fresh.some((edit) => taken.some((other) => conflict(edit, other)))) continue;
    taken.push(...fresh);
  }
  // From the end of the text back, so earlier offsets stay valid.
  taken.sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  for (const edit of taken) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

function main(): void {
  const { options, fileNames } = compilerOptions();
  const host = ts.createCompilerHost(options);
  const written = new Map<string, string>();
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => written.get(path.resolve(file)) ?? readFile(file);
  let program: ts.Program | undefined;
  let toCheck: string[] | null = null;
  let fixedTotal = 0;
  // Per file, the errors its last check left unfixed.
  const unfixed = new Map<string, ts.Diagnostic[]>();
  for (let round = 1; round <= 20; round++) {
    program = ts.createProgram({ rootNames: fileNames, options, host, oldProgram: program });
    const checker = program.getTypeChecker();
    const files = program
      .getSourceFiles()
      .filter((file) => isTestFile(file.fileName) && (toCheck === null || toCheck.includes(file.fileName)));
    const changed: string[] = [];
    let fixed = 0;
    for (const file of files) {
      const diagnostics = program.getSemanticDiagnostics(file).filter((d) => FIXABLE.has(d.code));
      const left: ts.Diagnostic[] = [];
      unfixed.set(file.fileName, left);
      if (diagnostics.length === 0) continue;
      const edits = diagnostics.map((diagnostic) => {
        const own = editsFor(checker, file, diagnostic);
        if (own.length === 0) left.push(diagnostic);
        return own;
      });
      if (edits.every((group) => group.length === 0)) continue;
      const text = applyEdits(file.text, edits);
      if (text === file.text) continue;
      fixed += diagnostics.length;
      changed.push(file.fileName);
      written.set(path.resolve(file.fileName), text);
      if (!checkOnly) ts.sys.writeFile(file.fileName, text);
    }
    console.log(`round ${round}: ${files.length} files checked, ${fixed} errors fixed in ${changed.length} files`);
    fixedTotal += fixed;
    if (changed.length === 0 || checkOnly) break;
    toCheck = changed;
    // A fix in a shared helper (lib/dev/test, e2e's) can fix, never break, its callers: re-check them too.
    if (changed.some((file) => !/\.test\.tsx?$/.test(file))) toCheck = null;
  }
  // `!` can push a line past the width: the changed files are formatted as Biome would.
  if (!checkOnly && written.size > 0) {
    spawnSync("npx", ["biome", "format", "--write", ...written.keys()], { cwd: root, stdio: "inherit" });
  }
  const remaining = [...unfixed.values()].flat();
  for (const diagnostic of remaining) {
    const file = diagnostic.file;
    const where = file && diagnostic.start !== undefined ? file.getLineAndCharacterOfPosition(diagnostic.start) : null;
    const name = file ? path.relative(root, file.fileName) : "?";
    console.log(
      `left for a person: ${name}(${where ? `${where.line + 1},${where.character + 1}` : "?"}) TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`,
    );
  }
  console.log(`${checkOnly ? "would fix" : "fixed"} ${fixedTotal} errors; ${remaining.length} left`);
  if (remaining.length > 0) process.exitCode = 1;
}

main();
