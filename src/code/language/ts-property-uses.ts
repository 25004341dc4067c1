// Uses of a property that TypeScript's rename leaves, and the renamed code no longer type-checks without: its name as
// a key beside its type (`Pick<StoreApi<T>, 'subscribe'>`), and an object literal of the type's shape given as it.
import type * as TS from 'typescript';

export interface KeySpan {
  file: string;
  /** The literal's text, inside its quotes. */
  start: number;
  length: number;
}

/**
 * The string literal types naming `name` as a key of another type argument of the same generic (in a union too:
 * `Pick<S, 'a' | 'b'>`) whose property `name` is declared at one of `declarations` (`file:offset` of each
 * declaration's name). Only in `files`, and only in those whose text holds the quoted name.
 */
export function keyLiteralSpans(
  ts: typeof TS,
  program: TS.Program,
  files: (file: string) => boolean,
  name: string,
  declarations: ReadonlySet<string>,
): KeySpan[] {
  const checker = program.getTypeChecker();
  const quoted = [`'${name}'`, `"${name}"`, `\`${name}\``];
  const found: KeySpan[] = [];
  const declaredHere = (symbol: TS.Symbol | undefined) =>
    (symbol?.declarations ?? []).some((d) => {
      const id = ts.getNameOfDeclaration(d);
      return id !== undefined && declarations.has(`${d.getSourceFile().fileName}:${id.getStart()}`);
    });
  for (const source of program.getSourceFiles()) {
    if (!files(source.fileName) || !quoted.some((q) => source.text.includes(q))) continue;
    const visit = (node: TS.Node): void => {
      if (ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal) && node.literal.text === name) {
        // Up through unions and parentheses to the type argument it is part of.
        let argument: TS.Node = node;
        while (ts.isUnionTypeNode(argument.parent) || ts.isParenthesizedTypeNode(argument.parent))
          argument = argument.parent;
        const reference = argument.parent;
        const others =
          (ts.isTypeReferenceNode(reference) || ts.isExpressionWithTypeArguments(reference)) &&
          reference.typeArguments?.includes(argument as TS.TypeNode)
            ? reference.typeArguments.filter((a) => a !== argument)
            : [];
        if (others.some((other) => declaredHere(checker.getTypeFromTypeNode(other).getProperty(name))))
          found.push({
            file: source.fileName,
            start: node.literal.getStart(source) + 1,
            length: name.length,
          });
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** Most variables holding a literal with the property whose uses are searched. */
const MAX_SEARCHES = 30;

/** The innermost node of `source` at `offset`. */
function nodeAt(source: TS.SourceFile, offset: number): TS.Node {
  let node: TS.Node = source;
  for (;;) {
    const inner = node.forEachChild((c) => (c.getStart(source) <= offset && offset < c.end ? c : undefined));
    if (!inner) return node;
    node = inner;
  }
}

/**
 * The properties named `name` of object literals held by a variable that is then given where the renamed property's
 * type is expected (zustand's `const api = { setState, subscribe }` passed as its StoreApi): TypeScript links a
 * literal to the type only where the type is written at the literal, and renaming the interface's property alone
 * leaves the literal without it. A shorthand (`{ subscribe }`) keeps its value: `listen: subscribe`.
 */
export function flowingLiteralSpans(
  ts: typeof TS,
  service: TS.LanguageService,
  files: (file: string) => boolean,
  name: string,
  declarations: ReadonlySet<string>,
): (KeySpan & { suffixText?: string })[] {
  const program = service.getProgram();
  if (!program) return [];
  const checker = program.getTypeChecker();
  const declaredHere = (type: TS.Type): boolean =>
    (type.isUnion() ? type.types : [type]).some((t) =>
      (t.getProperty(name)?.declarations ?? []).some((d) => {
        const id = ts.getNameOfDeclaration(d);
        return id !== undefined && declarations.has(`${d.getSourceFile().fileName}:${id.getStart()}`);
      }),
    );
  /** Whether a use of the variable declared at `at` is given where the renamed property's type is expected. */
  const flows = (file: string, at: number): boolean =>
    (service.findReferences(file, at) ?? []).some((symbol) =>
      symbol.references.some((r) => {
        if (r.isDefinition || r.isWriteAccess) return false;
        const source = program.getSourceFile(r.fileName);
        if (!source) return false;
        const use = nodeAt(source, r.textSpan.start);
        if (!ts.isExpression(use)) return false;
        const expected = checker.getContextualType(use);
        return expected !== undefined && declaredHere(expected);
      }),
    );
  const found: (KeySpan & { suffixText?: string })[] = [];
  // Each candidate costs a reference search: a common name (`id`, `name`) in many literals is not followed past these.
  let searches = MAX_SEARCHES;
  for (const source of program.getSourceFiles()) {
    if (!files(source.fileName) || !source.text.includes(name)) continue;
    const visit = (node: TS.Node): void => {
      if (
        ts.isObjectLiteralExpression(node) &&
        ts.isVariableDeclaration(node.parent) &&
        node.parent.initializer === node &&
        ts.isIdentifier(node.parent.name)
      ) {
        const property = node.properties.find(
          (p) =>
            (ts.isShorthandPropertyAssignment(p) ||
              ts.isPropertyAssignment(p) ||
              ts.isMethodDeclaration(p)) &&
            ts.isIdentifier(p.name) &&
            p.name.text === name,
        );
        if (property && searches-- > 0 && flows(source.fileName, node.parent.name.getStart(source)))
          found.push({
            file: source.fileName,
            start: property.name!.getStart(source),
            length: name.length,
            ...(ts.isShorthandPropertyAssignment(property) ? { suffixText: `: ${name}` } : {}),
          });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
