// What a TypeScript module exports of its own declarations, read from its syntax tree (rename_symbol's keep_alias).
import type * as TS from 'typescript';

/**
 * Whether the name at `offset` is declared by a top-level `export` statement of the file (`export const a`,
 * `export function f`, `export interface I`, …; not `export default`), the module exporting it under that name:
 * `type` for a type alone (an interface, a type alias), `value` for the rest, else undefined.
 */
export function exportedDeclaration(
  ts: typeof TS,
  source: TS.SourceFile,
  offset: number,
): 'type' | 'value' | undefined {
  const at = (node: TS.Node | undefined) => node !== undefined && node.getStart(source) === offset;
  for (const statement of source.statements) {
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
    if (!modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) continue;
    if (ts.isVariableStatement(statement)) {
      if (statement.declarationList.declarations.some((d) => at(d.name))) return 'value';
    } else if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) {
      if (at(statement.name)) return 'type';
    } else if (
      ts.isFunctionDeclaration(statement) ||
      ts.isClassDeclaration(statement) ||
      ts.isEnumDeclaration(statement)
    ) {
      if (at(statement.name)) return 'value';
    }
  }
  return undefined;
}

/**
 * Whether the file ends its statements with semicolons, as most of its imports, exports, variables and expressions
 * do (declarations of functions, classes and interfaces end with a brace either way); true when it has none.
 */
export function usesSemicolons(ts: typeof TS, source: TS.SourceFile): boolean {
  let ended = 0;
  let without = 0;
  for (const statement of source.statements) {
    const ends =
      ts.isImportDeclaration(statement) ||
      ts.isExportDeclaration(statement) ||
      ts.isVariableStatement(statement) ||
      ts.isExpressionStatement(statement) ||
      ts.isTypeAliasDeclaration(statement);
    if (!ends) continue;
    if (statement.getText(source).endsWith(';')) ended += 1;
    else without += 1;
  }
  return ended >= without;
}
