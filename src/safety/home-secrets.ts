// The one list of where secrets live in a home directory. Every wall reads it: the read jail and file tools (no read,
// no link into one, no hard link to a file in one), the shell's judgment (never named by a command), the sandbox
// (hidden), and the protected paths (writes need an approval).

/**
 * Home-relative locations of secrets: keys, cloud and cluster credentials, tokens of git hosts and package registries,
 * passwords. A directory covers everything below it. Directories are kept small: each is enumerated (secret-links.ts).
 */
export const HOME_SECRETS: readonly string[] = [
  '.ssh',
  '.aws',
  '.azure',
  '.gnupg',
  '.password-store',
  '.local/share/keyrings',
  '.config/gcloud',
  '.config/gh',
  '.config/hub',
  '.config/doctl',
  '.config/git/credentials',
  '.config/rclone/rclone.conf',
  '.config/keel/credentials.yaml',
  '.kube',
  '.oci',
  '.docker/config.json',
  '.git-credentials',
  '.netrc',
  '.pgpass',
  '.npmrc',
  '.pypirc',
  '.s3cfg',
  '.boto',
  '.vault-token',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.terraform.d/credentials.tfrc.json',
  // Other coding agents' and model hubs' sign-in tokens: on the machines Keel runs on, the likeliest keys of all.
  '.codex/auth.json',
  '.claude/.credentials.json',
  '.gemini/oauth_creds.json',
  '.config/github-copilot/hosts.json',
  '.config/github-copilot/apps.json',
  '.huggingface/token',
  '.cache/huggingface/token',
  // Shell histories hold the tokens typed on a command line (`export GITHUB_TOKEN=…`).
  '.bash_history',
  '.zsh_history',
];
