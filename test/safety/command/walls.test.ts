// The command judge's tiers for issue 17 as a table: deny (paths through links, git program settings), confirm
// (`.git` thrown away) and unseen (targets or code known only when the command runs); and what the analysis hides.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyzeCommand } from '../../../src/safety/command/analysis.js';
import { type CommandContext, judgeCommand } from '../../../src/safety/command/denylist.js';
import { openWorkspace } from '../../../src/safety/workspace.js';

let base: string;
let context: CommandContext;

beforeAll(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'keel-walls-cmd-')));
  const home = path.join(base, 'home');
  const root = path.join(home, 'proj');
  for (const dir of ['.git', 'packages/lib', 'node_modules/@acme', 'vendor/dep/.git']) {
    await fs.mkdir(path.join(root, dir), { recursive: true });
  }
  await fs.mkdir(path.join(home, '.ssh'));
  await fs.symlink('.', path.join(root, 'here'));
  await fs.symlink('../../packages/lib', path.join(root, 'node_modules', '@acme', 'lib'));
  context = {
    workspace: await openWorkspace(root),
    home,
    env: { HOME: home },
    allowedPaths: [],
    protectedPaths: [],
    stateDir: path.join(base, 'state'),
  };
});

afterAll(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

type Tier = 'deny' | 'confirm' | 'unseen' | 'none';

/** The strictest tier the judge reports for a command. */
async function tierOf(command: string): Promise<Tier> {
  const verdicts = await judgeCommand(await analyzeCommand(command), context);
  for (const tier of ['deny', 'confirm', 'unseen'] as const)
    if (verdicts.some((v) => v.tier === tier)) return tier;
  return 'none';
}

describe('judgeCommand tiers', () => {
  test.each<[string, Tier]>([
    ['cat here/../.ssh/id_rsa', 'deny'],
    ['cat node_modules/@acme/lib/../../../.ssh/id_rsa', 'deny'],
    ['cat node_modules/@acme/lib/../../packages/lib/x', 'none'],
    ['cd here && cat ../.ssh/id_rsa', 'deny'],
    ['cd -P here/.. && ls', 'deny'],
    ['git -C packages add ../../.ssh/id_rsa', 'deny'],
    ['cd nope; cat ../.ssh/id_rsa', 'deny'],
    ['cd nope || cat ../x', 'deny'],
    ['mkdir -p build && cd build && cat ../packages/lib/x', 'none'],
    ['mkdir -p build && cd build && cat ../../.ssh/id_rsa', 'deny'],
    ['git -C packages add ../x', 'none'],
    ['git --work-tree=here/.. status', 'deny'],
    ['echo x > here/../.profile', 'deny'],
    ["git config --file .git/config core.fsmonitor 'x'", 'deny'],
    ['git config --type=bool --local core.fsmonitor true', 'deny'],
    ["git config set --comment c alias.x '!sh'", 'deny'],
    ['git config unset core.hooksPath', 'deny'],
    ['git config --blob HEAD:x --get core.pager', 'none'],
    ['git config core.fsmonitor', 'none'],
    ['git config alias.lg "log --oneline"', 'none'],
    ['git -c core.pager=cat log', 'none'],
    ['git -c core.pager="less -R" log', 'none'],
    ['git -c pager.log=cat log', 'none'],
    ['git -c core.pager=vim log', 'deny'],
    ['git clone --config core.fsmonitor=x url', 'deny'],
    ['git clone -c core.sshCommand=x url', 'deny'],
    ['git clone --template=tpl url', 'deny'],
    ['git commit --template=msg.txt', 'none'],
    ['rm -rf .git', 'confirm'],
    ['rm -rf vendor/dep', 'confirm'],
    ['find vendor/dep -delete', 'confirm'],
    ["find . -name '*.o' -delete", 'none'],
    ["find . -iname '*CONFIG*' -delete", 'confirm'],
    ["find . -regex '.*' -delete", 'confirm'],
    ["find . -path '*/node_modules/*' -delete", 'none'],
    ['rsync -a --delete packages/lib/ vendor/dep/', 'confirm'],
    ['rsync -a --delete --exclude=.git packages/lib/ vendor/dep/', 'none'],
    ['cat $(echo x)', 'unseen'],
    ['cat "$f"', 'unseen'],
    ['cp a "$DEST"', 'unseen'],
    ['echo x > "$f"', 'unseen'],
    ['export PATH=$PATH:/x', 'none'],
    ['echo $(date)', 'none'],
    ['tar xzf a.tgz', 'unseen'],
    ['tar -xf a.tar --directory=packages', 'none'],
    ['tar tf a.tar', 'none'],
    ['tar czf a.tgz packages', 'none'],
    ['bsdtar -xPf a.tar -C packages', 'unseen'],
    ['tar -xf a.tar -C packages --to-command=sh', 'unseen'],
    ['unzip -o a.zip -d packages', 'none'],
    ['unzip -p a.zip x', 'none'],
    ['7z x a.7z', 'unseen'],
    ['7z x a.7z -opackages', 'none'],
    ['7z x a.7z -o..', 'deny'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    ['echo "${x@P}"', 'unseen'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    ['echo "${x@Q}"', 'none'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    ['echo "${!ref}"', 'unseen'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    ['echo "${!arr[@]}"', 'none'],
    ['cat <<EOF | sh\nid\nEOF', 'deny'],
    ['cat <<EOF | wc -l\nid\nEOF', 'none'],
    ['cat <<EOF && wc -l x\nid\nEOF', 'unseen'],
  ])('%s → %s', async (command, tier) => {
    expect(await tierOf(command)).toBe(tier);
  });
});

describe('what the analysis cannot see', () => {
  test('commands after a here-document are judged and marked hidden', async () => {
    const analysis = await analyzeCommand('cat <<EOF && rm -rf x\nbody\nEOF');
    expect(analysis.commands.map((c) => c.argv)).toContainEqual(['rm', '-rf', 'x']);
    expect(analysis.hidden).toEqual([{ text: 'rm -rf x', why: 'a command after a here-document' }]);
  });

  test('a redirection after a here-document is a redirection of the command', async () => {
    const analysis = await analyzeCommand('cat <<EOF 2>/dev/null > out.txt\nbody\nEOF');
    const targets = analysis.commands[0]?.redirects.map((r) => r.target);
    expect(targets).toEqual(expect.arrayContaining(['/dev/null', 'out.txt']));
    expect(analysis.hidden).toEqual([]);
  });
});
