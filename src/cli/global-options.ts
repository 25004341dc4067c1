// The options every subcommand receives from `keel`'s own flags.
export interface GlobalOptions {
  provider?: string;
  model?: string;
  baseUrl?: string;
  cwd?: string;
  maxTurns?: number;
  output: 'text' | 'json' | 'stream-json';
  config?: string;
  debug?: boolean;
  record?: string;
  cassette?: string;
}
