import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Each library workspace's faces (`package.json` `exports`) export only what another workspace
 * imports through the package's name: the main face what some file other than a test uses, the
 * `testing` face what other workspaces' tests use. A name nobody outside imports is an internal and
 * leaves the face; one only tests import belongs in `testing`. Exceptions are written below with
 * their reason.
 */
const root = join(import.meta.dirname, '..');
const libraries = ['packages/contracts', 'packages/testkit', 'engine', 'projections'];
/** The testkit exists for tests: its main face is a testing face. */
const testingLibraries = new Set(['packages/testkit']);
const workspaces = [...libraries, 'api', 'web'];
const skipped = new Set(['node_modules', '.git', 'dist', 'coverage', 'data', 'test-results']);
const sourceFile = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

/** `specifier:name` (`@auction/engine:decide`) → why the face keeps a name the rules would drop. */
const allowed = new Map<string, string>([]);

/** Tests, their helpers and the benchmarks: specs, `src/testing/`, `bench/`, the browser suites. */
const isTest = (file: string) =>
  /\.spec\.tsx?$/.test(file) ||
  file.split('/').some((folder) => folder === 'testing' || folder === 'bench') ||
  file.startsWith('web/e2e/');

const workspaceOf = (file: string) =>
  workspaces.find((workspace) => file.startsWith(`${workspace}/`)) ?? '(root)';

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (skipped.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return sourceFile.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });

interface Face {
  readonly library: string;
  /** The specifier other workspaces import: `@auction/engine`, `@auction/engine/testing`. */
  readonly specifier: string;
  readonly testing: boolean;
  readonly file: string;
}

const faces: Face[] = libraries.flatMap((library) => {
  const manifest = JSON.parse(readFileSync(join(root, library, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, string>;
  };
  return Object.entries(manifest.exports).map(([subpath, target]) => ({
    library,
    specifier: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
    testing: subpath === './testing' || testingLibraries.has(library),
    file: join(root, library, target),
  }));
});

const modifiers = (node: ts.Node) =>
  new Set((ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []) : []).map((m) => m.kind));

/** A file's text, or undefined when there is no such file. */
type Read = (path: string) => string | undefined;

const readSource: Read = (path) =>
  existsSync(path) && statSync(path).isFile() ? readFileSync(path, 'utf8') : undefined;

/**
 * The names a module exports, `export *` followed through relative paths as the bundler resolution
 * finds them. Read from the syntax alone: the compiler's binder would load every dependency's types
 * (seconds) to answer the same.
 */
const exportsOf = (file: string, read: Read = readSource): string[] => {
  const text = read(file);
  if (text === undefined) throw new Error(`no module at ${file}`);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
  const reExported = (specifier: string) => {
    if (!specifier.startsWith('.')) throw new Error(`${file} re-exports all of ${specifier}`);
    const base = join(dirname(file), specifier);
    const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find(
      (path) => read(path) !== undefined,
    );
    if (found === undefined) throw new Error(`${file}: cannot resolve ${specifier}`);
    return exportsOf(found, read).filter((name) => name !== 'default');
  };
  return source.statements.flatMap((statement): string[] => {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      const from = statement.moduleSpecifier;
      if (clause === undefined) {
        return from !== undefined && ts.isStringLiteral(from) ? reExported(from.text) : [];
      }
      if (ts.isNamespaceExport(clause)) return [clause.name.text];
      return clause.elements.map((element) => element.name.text);
    }
    if (ts.isExportAssignment(statement)) return ['default'];
    const kinds = modifiers(statement);
    if (!kinds.has(ts.SyntaxKind.ExportKeyword)) return [];
    if (kinds.has(ts.SyntaxKind.DefaultKeyword)) return ['default'];
    if (ts.isVariableStatement(statement)) {
      return statement.declarationList.declarations.flatMap((declaration) =>
        ts.isIdentifier(declaration.name) ? [declaration.name.text] : [],
      );
    }
    const { name } = statement as ts.DeclarationStatement;
    return name !== undefined && ts.isIdentifier(name) ? [name.text] : [];
  });
};

/** One import of a face's name (`*` when the import takes the whole module) by one file. */
interface Use {
  readonly specifier: string;
  readonly name: string;
  readonly file: string;
}

const stringArgument = (node: ts.CallExpression) => {
  const [first] = node.arguments;
  return first !== undefined && ts.isStringLiteralLike(first) ? first.text : undefined;
};

/** Every import of a module by name in `text`: static, re-exports, `import()` types and calls. */
const usesIn = (file: string, text: string): Use[] => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const uses: Use[] = [];
  const use = (specifier: string, name: string) => uses.push({ specifier, name, file });
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const specifier = node.moduleSpecifier.text;
      const clause = node.importClause;
      if (clause?.name !== undefined) use(specifier, 'default');
      const bindings = clause?.namedBindings;
      if (bindings === undefined) {
        if (clause === undefined) use(specifier, '*');
      } else if (ts.isNamespaceImport(bindings)) use(specifier, '*');
      else
        for (const element of bindings.elements) {
          use(specifier, (element.propertyName ?? element.name).text);
        }
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const specifier = node.moduleSpecifier.text;
      const clause = node.exportClause;
      if (clause === undefined || ts.isNamespaceExport(clause)) use(specifier, '*');
      else
        for (const element of clause.elements) {
          use(specifier, (element.propertyName ?? element.name).text);
        }
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal)) {
        const qualifier = node.qualifier;
        let first: ts.EntityName | undefined = qualifier;
        while (first !== undefined && ts.isQualifiedName(first)) first = first.left;
        use(literal.text, first === undefined || node.isTypeOf ? '*' : first.text);
      }
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const specifier = stringArgument(node);
      const loads =
        callee.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(callee) && callee.text === 'require') ||
        (ts.isPropertyAccessExpression(callee) &&
          ts.isIdentifier(callee.expression) &&
          callee.expression.text === 'vi');
      if (loads && specifier !== undefined) use(specifier, '*');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return uses;
};

/** What is wrong with the faces, given what each face exports and every import of the tree. */
const problems = (exported: Map<Face, string[]>, uses: readonly Use[]): string[] => {
  const found: string[] = [];
  const allowedSeen = new Set<string>();
  for (const [face, names] of exported) {
    const outside = uses.filter(
      (use) => use.specifier === face.specifier && workspaceOf(use.file) !== face.library,
    );
    for (const use of outside.filter((use) => use.name === '*')) {
      found.push(`${use.file} takes all of ${face.specifier}: name what it imports`);
    }
    if (face.testing) {
      for (const file of new Set(
        outside.filter((use) => !isTest(use.file)).map((use) => use.file),
      )) {
        found.push(`${file} is product code but imports ${face.specifier}`);
      }
    }
    for (const name of names) {
      const key = `${face.specifier}:${name}`;
      const users = outside.filter((use) => use.name === name).map((use) => use.file);
      const inUse = face.testing ? users.length > 0 : users.some((file) => !isTest(file));
      if (allowed.has(key)) {
        allowedSeen.add(key);
        if (inUse) found.push(`${key} is allowed but used: take it off the allow-list`);
      } else if (!inUse) {
        found.push(
          users.length === 0
            ? `${key} is imported by no other workspace`
            : `${key} is imported only by tests (${users.join(', ')}): move it to the testing face`,
        );
      }
    }
  }
  for (const key of allowed.keys()) {
    if (!allowedSeen.has(key)) found.push(`${key} is allowed but not exported`);
  }
  return found;
};

describe('the package faces', () => {
  it('reads every kind of import of a name', () => {
    const code = [
      "import { a, b as c } from '@auction/x';",
      "import type { T } from '@auction/x';",
      "import d, * as all from '@auction/y';",
      "export { e } from '@auction/x/testing';",
      "type U = import('@auction/x').U.V;",
      "const m = await import('@auction/z');",
    ].join('\n');
    expect(usesIn('f.ts', code).map((use) => `${use.specifier}:${use.name}`)).toEqual([
      '@auction/x:a',
      '@auction/x:b',
      '@auction/x:T',
      '@auction/y:default',
      '@auction/y:*',
      '@auction/x/testing:e',
      '@auction/x:U',
      '@auction/z:*',
    ]);
  });

  it('reads every kind of export, `export *` followed', () => {
    const files = new Map([
      [
        '/m/index.ts',
        [
          "export * from './folder';",
          "export { a, b as c } from './a';",
          "export type { T } from './a';",
          'export const d = 1, e = 2;',
          'export function f() {}',
          'export interface I {}',
          'export default class {}',
          'const hidden = 3;',
          'export { hidden as g };',
        ].join('\n'),
      ],
      ['/m/folder/index.ts', "export * from './inner';\nexport class H {}"],
      ['/m/folder/inner.ts', 'export enum J {}\nexport default 4;'],
    ]);
    expect(exportsOf('/m/index.ts', (path) => files.get(path))).toEqual([
      'J',
      'H',
      'a',
      'c',
      'T',
      'd',
      'e',
      'f',
      'I',
      'default',
      'g',
    ]);
  });

  it('export only what another workspace imports, and to tests only through `testing`', () => {
    const exported = new Map(faces.map((face) => [face, exportsOf(face.file)]));
    expect([...exported.keys()].map((face) => face.specifier)).toContain('@auction/engine/testing');
    const uses = sourceFiles(root).flatMap((path) =>
      usesIn(relative(root, path).split(sep).join('/'), readFileSync(path, 'utf8')),
    );
    expect(problems(exported, uses)).toEqual([]);
  });
});
