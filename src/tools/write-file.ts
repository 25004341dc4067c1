// write_file: writes a whole file atomically (temp file in the same directory, then rename).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { fileChangeDiff } from './file-diff.js';
import { withFsErrors } from './fs-util.js';
import { startTempFile } from './temp-files.js';
import { defineTool, fail, ok } from './tool.js';

const schema = z.object({ path: z.string(), content: z.string() });

export const writeFileTool = defineTool({
  name: 'write_file',
  description: 'Create or overwrite a file with the given content; parent directories are created.',
  schema,
  safety: 'caution',
  async preview(args, ctx) {
    const absolute = await ctx.workspace.resolve(args.path);
    const shown = ctx.workspace.relative(absolute);
    const before = await fs.readFile(absolute, 'utf8').catch(() => undefined);
    const lines = args.content.split('\n').length;
    return {
      reads: [],
      writes: [absolute],
      diff: fileChangeDiff(shown, before, args.content),
      summary: `write ${shown} (${lines} lines${before === undefined ? ', new file' : ''})`,
    };
  },
  async execute(args, ctx) {
    const absolute = await ctx.workspace.resolve(args.path);
    const shown = ctx.workspace.relative(absolute);
    if (absolute === ctx.workspace.root) return fail('cannot write to the workspace root; name a file');
    const existing = await fs.stat(absolute).catch(() => undefined);
    if (existing?.isDirectory()) return fail(`${shown} is a directory; name a file inside it`);
    const dir = path.dirname(absolute);
    await withFsErrors(ctx.workspace.relative(dir), () => fs.mkdir(dir, { recursive: true }));
    // Same directory, so the rename is atomic: readers see the old file or the new one, never half.
    // The temp file is journaled in Keel's state dir, so a run killed before the rename has it removed later.
    const temp = await startTempFile(absolute, ctx.stateDir);
    try {
      await fs.writeFile(temp.path, args.content, { signal: ctx.signal, flag: 'wx' });
      // An overwritten file keeps its permissions (an executable script stays executable).
      if (existing) await fs.chmod(temp.path, existing.mode & 0o7777);
      await fs.rename(temp.path, absolute);
    } catch (error) {
      await fs.rm(temp.path, { force: true });
      throw new Error(`could not write ${shown}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      await temp.done();
    }
    const bytes = Buffer.byteLength(args.content);
    const verb = existing ? 'overwrote' : 'created';
    return ok(`${verb} ${shown} (${bytes} bytes)`, { path: shown, bytes, created: !existing });
  },
});
