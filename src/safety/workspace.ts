// The workspace path jail: every path a tool touches resolves inside the workspace root,
// after following symlinks. (Interface; implementation to follow.)

export interface Workspace {
  /** Absolute, symlink-free path of the workspace root. */
  readonly root: string;
  /**
   * Resolves a model-supplied path (relative to the root, or absolute inside it) to an absolute
   * path inside the workspace, following symlinks of every existing component.
   * Throws PathEscapeError when the path or a link on it leads outside.
   */
  resolve(path: string): Promise<string>;
  /** The path relative to the root, for display ("." for the root itself). */
  relative(absolute: string): string;
}
