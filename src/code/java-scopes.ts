// Java by name (no language service): the declaration a variable's name means where it is used, by the scopes
// around the use (a lambda's parameters, a block's locals before the use, a for's, a catch's, a method's
// parameters, a class's fields), and its type as written. java-references.ts reads receivers' types with it.
import type { AstNode } from './ast-grep.js';
import type { JavaMemberType } from './java-types.js';
import { topLevelParts } from './source-text.js';

/** A declaration's type, as written; `null` when the variable is declared without one (`var`, a lambda's `x`). */
type Declared = string | null;

/** The JDK's functional interfaces: which of their type arguments each parameter of their method takes. */
const JDK_FUNCTIONS: Record<string, number[]> = {
  Function: [0],
  BiFunction: [0, 1],
  UnaryOperator: [0],
  BinaryOperator: [0, 0],
  Consumer: [0],
  BiConsumer: [0, 1],
  Predicate: [0],
  BiPredicate: [0, 1],
  Comparator: [0, 0],
  ToIntFunction: [0],
  ToLongFunction: [0],
  ToDoubleFunction: [0],
};

const typeArgumentsOf = (type: string): string[] => {
  const open = type.indexOf('<');
  return open < 0 || !type.endsWith('>') ? [] : topLevelParts(type.slice(open + 1, -1));
};

/** The functional interface type a lambda is given as: its cast (`(JsonDeserializer<T>) (json, …) -> …`), its variable's or field's type, its method's return type. */
function lambdaTarget(lambda: AstNode): string | undefined {
  let holder = lambda.parent();
  while (holder?.kind() === 'parenthesized_expression') holder = holder.parent();
  if (!holder) return undefined;
  if (holder.kind() === 'cast_expression') return holder.field('type')?.text();
  if (holder.kind() === 'variable_declarator') return holder.parent()?.field('type')?.text();
  if (holder.kind() === 'return_statement')
    return holder
      .ancestors()
      .find((a) => a.kind() === 'method_declaration' || a.kind() === 'lambda_expression')
      ?.field('type')
      ?.text();
  return undefined;
}

/** The type of a lambda's `position`-th parameter, read off the functional interface it is given as. */
function lambdaParameterType(lambda: AstNode, position: number, memberType: JavaMemberType): Declared {
  const target = lambdaTarget(lambda);
  if (!target) return null;
  const name = target
    .replace(/<[\s\S]*$/, '')
    .split('.')
    .pop()!
    .trim();
  const args = typeArgumentsOf(target).map((a) => a.replace(/^\?\s+(?:extends|super)\s+/, ''));
  const jdk = JDK_FUNCTIONS[name];
  if (jdk) return args[jdk[position] ?? -1] ?? null;
  const method = memberType.lambdaParameters?.(name);
  const param = method?.parameters[position];
  if (!method || param === undefined) return null;
  // The interface's type parameter (`JsonSerializer<T>`'s `T src`) is the type argument the cast gives it.
  const at = method.typeParameters.indexOf(param);
  return at < 0 ? param : (args[at] ?? null);
}

/** The variables a declaration node declares, by name, with their types as written. */
function declares(node: AstNode, variable: string): Declared | undefined {
  switch (node.kind()) {
    case 'local_variable_declaration':
    case 'field_declaration':
    case 'constant_declaration': {
      const named = node
        .children()
        .some((c) => c.kind() === 'variable_declarator' && c.field('name')?.text() === variable);
      if (!named) return undefined;
      const type = node.field('type')?.text().trim();
      return !type || type === 'var' ? null : type;
    }
    case 'formal_parameter':
    case 'resource':
      return node.field('name')?.text() === variable ? (node.field('type')?.text() ?? null) : undefined;
    case 'spread_parameter': {
      const declarator = node.children().find((c) => c.kind() === 'variable_declarator');
      if (declarator?.field('name')?.text() !== variable) return undefined;
      const type = node.namedChildren().find((c) => c !== declarator && /type/.test(c.kind()));
      return type ? `${type.text()}[]` : null;
    }
    case 'catch_formal_parameter': {
      if (node.field('name')?.text() !== variable) return undefined;
      const types = node.children().find((c) => c.kind() === 'catch_type');
      return types && types.namedChildren().length === 1 ? types.text() : null;
    }
    default:
      return undefined;
  }
}

/** What a scope node declares for `variable` before `at` (a block's locals, a for's, a method's parameters). */
function declaredIn(
  scope: AstNode,
  variable: string,
  at: number,
  memberType: JavaMemberType,
): Declared | undefined {
  switch (scope.kind()) {
    case 'lambda_expression': {
      const params = scope.field('parameters');
      if (!params) return undefined;
      if (params.kind() === 'identifier')
        return params.text() === variable ? lambdaParameterType(scope, 0, memberType) : undefined;
      const names = params.namedChildren();
      if (params.kind() === 'inferred_parameters') {
        const position = names.findIndex((n) => n.text() === variable);
        return position < 0 ? undefined : lambdaParameterType(scope, position, memberType);
      }
      for (const param of names) {
        const found = declares(param, variable);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    case 'method_declaration':
    case 'constructor_declaration':
    case 'record_declaration': {
      for (const param of scope.field('parameters')?.namedChildren() ?? []) {
        const found = declares(param, variable);
        if (found !== undefined) return found;
      }
      // A record's components are its fields, read above; its methods' patterns are theirs.
      if (scope.kind() === 'record_declaration') return undefined;
      // A pattern variable (`node instanceof TextNode textNode`) declared earlier in the method's body.
      let pattern: Declared | undefined;
      for (const test of scope.findAll({ rule: { kind: 'instanceof_expression' } }))
        if (test.range().start.index < at && test.field('name')?.text() === variable)
          pattern = test.field('right')?.text() ?? null;
      return pattern;
    }
    case 'block':
    case 'constructor_body':
    case 'switch_block_statement_group': {
      let found: Declared | undefined;
      for (const statement of scope.children())
        if (statement.kind() === 'local_variable_declaration' && statement.range().start.index < at)
          found = declares(statement, variable) ?? found;
      return found;
    }
    case 'for_statement': {
      const init = scope.field('init');
      return init ? declares(init, variable) : undefined;
    }
    case 'enhanced_for_statement':
      return scope.field('name')?.text() === variable ? (scope.field('type')?.text() ?? null) : undefined;
    case 'catch_clause':
    case 'resource_specification':
    case 'formal_parameters': {
      for (const child of scope.namedChildren()) {
        const found = declares(child, variable);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    case 'try_with_resources_statement': {
      const resources = scope.children().find((c) => c.kind() === 'resource_specification');
      return resources ? declaredIn(resources, variable, at, memberType) : undefined;
    }
    case 'class_body':
    case 'enum_body_declarations':
    case 'interface_body': {
      for (const member of scope.children()) {
        const found = declares(member, variable);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The type the Java variable `variable` is declared with where `from` uses it, as written: the nearest declaration
 * in scope (a lambda's parameter before the method's local of that name, a local declared before the use, a
 * field of an enclosing class); `null` when that declaration writes no type that can be read (`var`, a lambda's
 * parameter of unknown target); undefined when nothing around it declares the name (an inherited field, a class).
 */
export function javaDeclaredType(
  from: AstNode,
  variable: string,
  memberType: JavaMemberType,
): string | null | undefined {
  const at = from.range().start.index;
  for (const scope of from.ancestors()) {
    const found = declaredIn(scope, variable, at, memberType);
    if (found !== undefined) return found === null ? null : found.trim();
  }
  return undefined;
}
