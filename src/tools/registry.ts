// The tool registry: looks tools up by name and offers their specs (JSON Schema) to the model.
import { z } from 'zod';
import type { ToolSpec } from '../providers/model.js';
import { createDirectoryTool } from './create-directory.js';
import { deletePathTool } from './delete-path.js';
import { diffFilesTool } from './diff-files.js';
import { executeCommandTool } from './execute-command.js';
import { listFilesTool } from './list-files.js';
import { readFileTool } from './read-file.js';
import type { Tool } from './tool.js';
import { createWriteFileTool, type WriteFileOptions } from './write-file.js';

export interface ToolRegistry {
  get(name: string): Tool | undefined;
  list(): Tool[];
  specs(): ToolSpec[];
}

function toSpec(tool: Tool): ToolSpec {
  // io: 'input' keeps fields with defaults optional, as the model may omit them.
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(tool.schema, { io: 'input' });
  return { name: tool.name, description: tool.description, inputSchema };
}

export function createRegistry(tools: Tool[]): ToolRegistry {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`two tools are named ${tool.name}`);
    byName.set(tool.name, tool);
  }
  let specs: ToolSpec[] | undefined;
  return {
    get: (name) => byName.get(name),
    list: () => [...byName.values()],
    specs: () => {
      specs ??= [...byName.values()].map(toSpec);
      return specs;
    },
  };
}

/** The built-in file and shell tools; `stateDir` lets write_file journal its temp files. */
export function defaultTools(options: WriteFileOptions = {}): Tool[] {
  return [
    listFilesTool,
    readFileTool,
    createWriteFileTool(options),
    createDirectoryTool,
    deletePathTool,
    diffFilesTool,
    executeCommandTool,
  ] as Tool[];
}
