// The built-in tools by name, each behind a loader. In the CLI's bundle scripts/build.mjs turns these imports into
// require() calls made at a loader's first call, so a tool's module (its zod schema, its helpers) loads when the tool
// is first used, not at start-up; from source (tests) they load with this file.
import { appendFileTool } from './append-file.js';
import { askUserTool } from './ask-user.js';
import { buildDependencyGraphTool } from './build-dependency-graph.js';
import { commandOutputTool } from './command-output.js';
import { copyPathTool } from './copy-path.js';
import { createBarrelTool } from './create-barrel.js';
import { createDirectoryTool } from './create-directory.js';
import { deletePathTool } from './delete-path.js';
import { detectProjectTypeTool } from './detect-project-type.js';
import { diffFilesTool } from './diff-files.js';
import { editFileTool } from './edit-file.js';
import { executeCommandTool } from './execute-command.js';
import { extractConventionsTool } from './extract-conventions.js';
import { findReferencesTool } from './find-references.js';
import { getCodebaseMapTool } from './get-codebase-map.js';
import { getDiagnosticsTool } from './get-diagnostics.js';
import { getImportsExportsTool } from './get-imports-exports.js';
import { getProjectOverviewTool } from './get-project-overview.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { inspectSymbolTool } from './inspect-symbol.js';
import { killCommandTool } from './kill-command.js';
import { listFilesTool } from './list-files.js';
import { movePathTool } from './move-path.js';
import { organizeImportsTool } from './organize-imports.js';
import { readFileTool } from './read-file.js';
import { renameSymbolTool } from './rename-symbol.js';
import { searchCodeTool } from './search-code.js';
import { todoWriteTool } from './todo-write.js';
import type { Tool } from './tool.js';
import { webFetchTool } from './web-fetch.js';
import { webSearchTool } from './web-search.js';
import { writeFileTool } from './write-file.js';

/** The built-in file, shell, code, web and planning tools, in the order they are offered. */
export const builtinTools: Readonly<Record<string, () => Tool>> = {
  list_files: () => listFilesTool as Tool,
  read_file: () => readFileTool as Tool,
  write_file: () => writeFileTool as Tool,
  create_directory: () => createDirectoryTool as Tool,
  delete_path: () => deletePathTool as Tool,
  diff_files: () => diffFilesTool as Tool,
  execute_command: () => executeCommandTool as Tool,
  command_output: () => commandOutputTool as Tool,
  kill_command: () => killCommandTool as Tool,
  edit_file: () => editFileTool as Tool,
  glob: () => globTool as Tool,
  grep: () => grepTool as Tool,
  move_path: () => movePathTool as Tool,
  copy_path: () => copyPathTool as Tool,
  append_file: () => appendFileTool as Tool,
  get_codebase_map: () => getCodebaseMapTool as Tool,
  search_code: () => searchCodeTool as Tool,
  inspect_symbol: () => inspectSymbolTool as Tool,
  get_imports_exports: () => getImportsExportsTool as Tool,
  build_dependency_graph: () => buildDependencyGraphTool as Tool,
  find_references: () => findReferencesTool as Tool,
  rename_symbol: () => renameSymbolTool as Tool,
  get_diagnostics: () => getDiagnosticsTool as Tool,
  organize_imports: () => organizeImportsTool as Tool,
  create_barrel: () => createBarrelTool as Tool,
  todo_write: () => todoWriteTool as Tool,
  ask_user: () => askUserTool as Tool,
  web_fetch: () => webFetchTool as Tool,
  web_search: () => webSearchTool as Tool,
};

/** The project analyses behind `keel init`. */
export const projectToolLoaders: Readonly<Record<string, () => Tool>> = {
  detect_project_type: () => detectProjectTypeTool as Tool,
  extract_conventions: () => extractConventionsTool as Tool,
  get_project_overview: () => getProjectOverviewTool as Tool,
};
