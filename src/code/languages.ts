// The languages code intelligence understands, as data: tree-sitter node kinds of definitions, imports, identifiers,
// local bindings and scopes per language. src/code/tags.ts and references.ts read these tables; no language logic there.

export type SymbolKind =
  | 'function'
  | 'method'
  | 'class'
  | 'interface'
  | 'type'
  | 'enum'
  | 'constant'
  | 'variable'
  | 'field'
  | 'module';

export const SYMBOL_KINDS: readonly SymbolKind[] = [
  'function',
  'method',
  'class',
  'interface',
  'type',
  'enum',
  'constant',
  'variable',
  'field',
  'module',
];

/** How a definition node is recognised and named. */
export interface DefinitionRule {
  /** The tree-sitter node kind. */
  kind: string;
  symbol: SymbolKind;
  /** Child kind holding one definition each (`const a = 1, b = 2`: variable_declarator). */
  each?: string;
  /** Field holding the name (default `name`); without it, the first identifier-like child. */
  nameField?: string;
  /** Only when the node's parent is one of these kinds (top-level constants, not locals). */
  parents?: string[];
  /** Not a definition itself, but methods inside it belong to it (Rust `impl S`): named by this field. */
  containerOnly?: boolean;
}

/** Which definitions a module exposes to others. */
export type ExportRule = 'export-keyword' | 'no-underscore' | 'capitalised' | 'pub' | 'public';

export interface LanguageSpec {
  /** Our name for it, and the ast-grep language name. */
  id: LanguageId;
  astGrep: string;
  extensions: string[];
  definitions: DefinitionRule[];
  /** Kinds whose definitions hold methods: a function inside one is a method. */
  containers: string[];
  /** Import (and re-export) statement kinds; their text is read by the import patterns. */
  imports: string[];
  /** Identifier node kinds of plain names (variables, functions, types). */
  identifiers: string[];
  /** Identifier kinds naming members (`obj.m`, `m() {}`): counted only for methods and fields. */
  memberIdentifiers: string[];
  /** A plain identifier whose parent is this kind, in this field, is a member access (Python `obj.m`). */
  memberAccess?: { parent: string; field: string }[];
  /**
   * Parents that make an identifier a local binding (parameter, local variable) of its nearest scope:
   * `kind.field` (the identifier is that field), `kind` (its first identifier), `*kind` (any identifier in it),
   * `*kind<outer` (any identifier in a `kind` that is the first child of `outer`).
   */
  localBindings: string[];
  /** Function-like nodes: the scope of a local binding. */
  scopes: string[];
  /** Scopes whose body is their next sibling (Dart: function_signature, then function_body). */
  bodyFollows?: string[];
  exportRule: ExportRule;
  /** Comment and string syntax, then identifiers (group 1): names used in code, for the reference graph. */
  lexer: RegExp;
  /** Lines of a doc comment above a definition. */
  docComment: RegExp;
}

export type LanguageId = 'typescript' | 'tsx' | 'javascript' | 'python' | 'rust' | 'go' | 'java' | 'dart';

const C_LIKE_LEXER =
  /\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`|([A-Za-z_$][\w$]*)/g;
const C_DOC = /^\s*(\/\/\/?|\/\*\*?|\*)/;

const TS_DEFINITIONS: DefinitionRule[] = [
  { kind: 'function_declaration', symbol: 'function' },
  { kind: 'generator_function_declaration', symbol: 'function' },
  { kind: 'function_signature', symbol: 'function' },
  { kind: 'class_declaration', symbol: 'class' },
  { kind: 'abstract_class_declaration', symbol: 'class' },
  { kind: 'interface_declaration', symbol: 'interface' },
  { kind: 'type_alias_declaration', symbol: 'type' },
  { kind: 'enum_declaration', symbol: 'enum' },
  { kind: 'internal_module', symbol: 'module' },
  { kind: 'method_definition', symbol: 'method' },
  { kind: 'method_signature', symbol: 'method' },
  { kind: 'abstract_method_signature', symbol: 'method' },
  { kind: 'public_field_definition', symbol: 'field' },
  // An interface's properties (zustand's `StoreApi.getInitialState: () => T`), never a type literal's.
  { kind: 'property_signature', symbol: 'field', parents: ['interface_body'] },
  {
    kind: 'lexical_declaration',
    symbol: 'constant',
    each: 'variable_declarator',
    parents: ['program', 'export_statement'],
  },
  {
    kind: 'variable_declaration',
    symbol: 'variable',
    each: 'variable_declarator',
    parents: ['program', 'export_statement'],
  },
];

const TS_LIKE = {
  definitions: TS_DEFINITIONS,
  containers: ['class_declaration', 'abstract_class_declaration', 'interface_declaration', 'class'],
  imports: ['import_statement', 'export_statement'],
  identifiers: ['identifier', 'type_identifier', 'shorthand_property_identifier'],
  memberIdentifiers: ['property_identifier'],
  localBindings: [
    'variable_declarator.name',
    'required_parameter.pattern',
    'optional_parameter.pattern',
    'arrow_function.parameter',
    '*formal_parameters',
  ],
  scopes: [
    'function_declaration',
    'generator_function_declaration',
    'function_expression',
    'arrow_function',
    'method_definition',
  ],
  exportRule: 'export-keyword' as const,
  lexer: C_LIKE_LEXER,
  docComment: C_DOC,
};

export const LANGUAGES: readonly LanguageSpec[] = [
  { id: 'typescript', astGrep: 'TypeScript', extensions: ['.ts', '.mts', '.cts'], ...TS_LIKE },
  { id: 'tsx', astGrep: 'Tsx', extensions: ['.tsx'], ...TS_LIKE },
  // The TSX grammar reads plain JavaScript and JSX alike.
  { id: 'javascript', astGrep: 'Tsx', extensions: ['.js', '.jsx', '.mjs', '.cjs'], ...TS_LIKE },
  {
    id: 'python',
    astGrep: 'python',
    extensions: ['.py', '.pyi'],
    definitions: [
      { kind: 'function_definition', symbol: 'function' },
      { kind: 'class_definition', symbol: 'class' },
      { kind: 'assignment', symbol: 'variable', nameField: 'left', parents: ['expression_statement'] },
    ],
    containers: ['class_definition'],
    imports: ['import_statement', 'import_from_statement'],
    identifiers: ['identifier'],
    memberIdentifiers: [],
    memberAccess: [{ parent: 'attribute', field: 'attribute' }],
    localBindings: [
      '*parameters',
      'typed_parameter',
      'default_parameter.name',
      'typed_default_parameter.name',
      'assignment.left',
    ],
    scopes: ['function_definition', 'lambda'],
    exportRule: 'no-underscore',
    lexer: /#[^\n]*|"""[\s\S]*?"""|'''[\s\S]*?'''|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|([A-Za-z_][\w]*)/g,
    docComment: /^\s*#/,
  },
  {
    id: 'rust',
    astGrep: 'rust',
    extensions: ['.rs'],
    definitions: [
      { kind: 'function_item', symbol: 'function' },
      { kind: 'function_signature_item', symbol: 'function' },
      { kind: 'struct_item', symbol: 'class' },
      { kind: 'union_item', symbol: 'class' },
      { kind: 'enum_item', symbol: 'enum' },
      { kind: 'trait_item', symbol: 'interface' },
      { kind: 'type_item', symbol: 'type' },
      { kind: 'const_item', symbol: 'constant' },
      { kind: 'static_item', symbol: 'constant' },
      { kind: 'mod_item', symbol: 'module' },
      { kind: 'macro_definition', symbol: 'function' },
      { kind: 'impl_item', symbol: 'class', nameField: 'type', containerOnly: true },
    ],
    containers: ['impl_item', 'trait_item'],
    imports: ['use_declaration', 'mod_item', 'extern_crate_declaration'],
    identifiers: ['identifier', 'type_identifier'],
    memberIdentifiers: ['field_identifier'],
    localBindings: ['parameter.pattern', 'let_declaration.pattern', '*closure_parameters'],
    scopes: ['function_item', 'closure_expression'],
    exportRule: 'pub',
    lexer: /\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:\\.|[^"\\])*"|([A-Za-z_]\w*)/g,
    docComment: /^\s*(\/\/[/!]|#\[)/,
  },
  {
    id: 'go',
    astGrep: 'go',
    extensions: ['.go'],
    definitions: [
      { kind: 'function_declaration', symbol: 'function' },
      { kind: 'method_declaration', symbol: 'method' },
      { kind: 'type_declaration', symbol: 'type', each: 'type_spec' },
      { kind: 'const_declaration', symbol: 'constant', each: 'const_spec', parents: ['source_file'] },
      { kind: 'var_declaration', symbol: 'variable', each: 'var_spec', parents: ['source_file'] },
    ],
    containers: [],
    imports: ['import_spec'],
    // `calc.ComputeTotal`: another package's names are reached as selector fields.
    identifiers: ['identifier', 'type_identifier', 'package_identifier', 'field_identifier'],
    memberIdentifiers: [],
    localBindings: [
      'parameter_declaration.name',
      '*expression_list<short_var_declaration',
      '*expression_list<range_clause',
      'var_spec.name',
    ],
    scopes: ['function_declaration', 'method_declaration', 'func_literal'],
    exportRule: 'capitalised',
    lexer: /\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:\\.|[^"\\\n])*"|`[^`]*`|'(?:\\.|[^'\\\n])*'|([A-Za-z_]\w*)/g,
    docComment: /^\s*\/\//,
  },
  {
    id: 'java',
    astGrep: 'java',
    extensions: ['.java'],
    definitions: [
      { kind: 'class_declaration', symbol: 'class' },
      { kind: 'record_declaration', symbol: 'class' },
      { kind: 'interface_declaration', symbol: 'interface' },
      { kind: 'annotation_type_declaration', symbol: 'interface' },
      { kind: 'enum_declaration', symbol: 'enum' },
      { kind: 'method_declaration', symbol: 'method' },
      { kind: 'constructor_declaration', symbol: 'method' },
      { kind: 'field_declaration', symbol: 'field', each: 'variable_declarator' },
    ],
    containers: ['class_declaration', 'record_declaration', 'interface_declaration', 'enum_declaration'],
    imports: ['import_declaration'],
    identifiers: ['identifier', 'type_identifier'],
    memberIdentifiers: [],
    memberAccess: [
      { parent: 'field_access', field: 'field' },
      { parent: 'method_invocation', field: 'name' },
    ],
    // A varargs parameter's name is its variable_declarator's (`Strat... strategies`: never the type).
    localBindings: [
      'formal_parameter.name',
      'variable_declarator.name',
      'enhanced_for_statement.name',
      'catch_formal_parameter.name',
      // A lambda's parameters (`(json, type, context) -> …`, `x -> …`), a pattern's variable, a resource.
      '*inferred_parameters',
      'lambda_expression.parameters',
      'instanceof_expression.name',
      'resource.name',
    ],
    scopes: ['method_declaration', 'constructor_declaration', 'lambda_expression'],
    exportRule: 'public',
    lexer: C_LIKE_LEXER,
    docComment: C_DOC,
  },
  {
    id: 'dart',
    astGrep: 'dart',
    extensions: ['.dart'],
    definitions: [
      { kind: 'class_definition', symbol: 'class' },
      { kind: 'mixin_declaration', symbol: 'class' },
      { kind: 'extension_declaration', symbol: 'class' },
      { kind: 'enum_declaration', symbol: 'enum' },
      { kind: 'type_alias', symbol: 'type' },
      { kind: 'function_signature', symbol: 'function' },
      { kind: 'getter_signature', symbol: 'method' },
      { kind: 'setter_signature', symbol: 'method' },
      { kind: 'static_final_declaration', symbol: 'constant', parents: ['static_final_declaration_list'] },
      { kind: 'initialized_identifier', symbol: 'field', parents: ['initialized_identifier_list'] },
    ],
    containers: ['class_definition', 'mixin_declaration', 'extension_declaration'],
    imports: ['import_or_export'],
    identifiers: ['identifier', 'type_identifier'],
    memberIdentifiers: [],
    memberAccess: [{ parent: 'unconditional_assignable_selector', field: '' }],
    localBindings: ['formal_parameter', 'initialized_variable_definition'],
    scopes: ['function_signature', 'function_body', 'function_expression'],
    bodyFollows: ['function_signature'],
    exportRule: 'no-underscore',
    lexer:
      /\/\/[^\n]*|\/\*[\s\S]*?\*\/|'''[\s\S]*?'''|"""[\s\S]*?"""|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|([A-Za-z_$][\w$]*)/g,
    docComment: /^\s*(\/\/\/|\/\*\*|\*)/,
  },
];

const BY_EXTENSION = new Map(LANGUAGES.flatMap((lang) => lang.extensions.map((ext) => [ext, lang] as const)));

/** The language of a file, by its extension; undefined for files we do not parse. */
export function languageOf(file: string): LanguageSpec | undefined {
  const dot = file.lastIndexOf('.');
  return dot < 0 ? undefined : BY_EXTENSION.get(file.slice(dot).toLowerCase());
}

/**
 * Single-file components whose scripts the code index reads as TypeScript (the rest is markup): `<script>` blocks,
 * and an Astro component's frontmatter (between its first two `---` lines).
 */
const COMPONENT_EXTENSIONS = new Set(['.vue', '.svelte', '.astro']);

const isComponent = (file: string) => {
  const dot = file.lastIndexOf('.');
  return dot >= 0 && COMPONENT_EXTENSIONS.has(file.slice(dot).toLowerCase());
};

/**
 * The language the code index (map, search, inspection) reads a file in: its own, or TypeScript for a Vue, Svelte or
 * Astro component's scripts. Only the index: edits, renames and organize_imports leave components alone.
 */
export function indexLanguageOf(file: string): LanguageSpec | undefined {
  return isComponent(file) ? BY_EXTENSION.get('.ts') : languageOf(file);
}

/**
 * The text the code index parses: a component's `<script>` blocks where they stand, everything else blanked (line
 * breaks kept, so lines and columns are the file's own); any other file as it is.
 */
export function indexSource(file: string, source: string): string {
  if (!isComponent(file)) return source;
  let out = '';
  let at = 0;
  const blank = (text: string) => text.replace(/[^\n]/g, ' ');
  const frontmatter = file.toLowerCase().endsWith('.astro')
    ? /^(\s*---[^\n]*\n)([\s\S]*?\n)(---)/.exec(source)
    : null;
  if (frontmatter) {
    out = blank(frontmatter[1]!) + frontmatter[2]! + blank(frontmatter[3]!);
    at = frontmatter[0].length;
  }
  for (const match of source.matchAll(/(<script\b[^>]*>)([\s\S]*?)(<\/script\s*>)/gi)) {
    const start = match.index;
    if (start < at) continue;
    out += blank(source.slice(at, start)) + blank(match[1]!) + match[2]! + blank(match[3]!);
    at = start + match[0].length;
  }
  return out + blank(source.slice(at));
}
