/**
 * The layers of docs/architecture.md, checked on the sources: what each layer may import, and no
 * cycle of value imports (a cycle makes load order matter and hides which module owns what).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
  dynamic: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.m?ts$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

function importsOf(file: string): Import[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean, dynamic: boolean) => {
    if (specifier.startsWith('.')) found.push({ from: file, to: resolve(dirname(file), specifier.replace(/\.js$/, '.ts')), typeOnly, dynamic });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const typeOnly = !!clause && (clause.isTypeOnly || (!clause.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier.text, typeOnly, false);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.isTypeOnly, false);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      if (specifier && ts.isStringLiteralLike(specifier)) add(specifier.text, false, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = sourceFiles(SRC);
const imports = files.flatMap(importsOf);
const layerOf = (file: string) => relative(SRC, file).split(sep)[0].replace(/\.ts$/, '');
const name = (file: string) => relative(SRC, file);

/** What a layer must not import, statically or for types (an engine is reached through the registry). */
const FORBIDDEN: Record<string, string[]> = {
  server: ['engines', 'dap'],
  core: ['server', 'engines', 'dap', 'daemon', 'demo', 'reload', 'cli'],
  engines: ['server', 'daemon', 'demo', 'reload', 'cli'],
  dap: ['server', 'core', 'engines'],
  remote: ['server', 'engines'],
  daemon: ['engines'],
};

describe('layers', () => {
  it('finds the sources and their imports', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(imports.length).toBeGreaterThan(500);
  });

  it.each(Object.entries(FORBIDDEN))('%s imports none of its forbidden layers', (layer, forbidden) => {
    const crossing = imports
      .filter((i) => layerOf(i.from) === layer && forbidden.includes(layerOf(i.to)))
      // The registry is the one place that loads engines, by dynamic import on first use.
      .filter((i) => !(i.dynamic && name(i.from) === join('core', 'engineRegistry.ts')))
      .map((i) => `${name(i.from)} → ${name(i.to)}`);
    expect(crossing).toEqual([]);
  });

  it('has no cycle of static value imports', () => {
    const next = new Map<string, string[]>();
    for (const i of imports) if (!i.typeOnly && !i.dynamic) next.set(i.from, [...(next.get(i.from) ?? []), i.to]);
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const walk = (file: string): void => {
      state.set(file, 'open');
      path.push(file);
      for (const to of next.get(file) ?? []) {
        if (state.get(to) === 'open') cycles.push([...path.slice(path.indexOf(to)), to].map(name).join(' → '));
        else if (!state.has(to)) walk(to);
      }
      path.pop();
      state.set(file, 'done');
    };
    for (const file of files) if (!state.has(file)) walk(file);
    expect(cycles).toEqual([]);
  });
});
