// keel init's request and answer handling: the answer as a file, the diff summary, the README's opening section.
import { describe, expect, it } from 'vitest';
import { agentsFileContent, diffCounts, initPrompt } from '../../src/project/agents-md.js';
import { firstSection } from '../../src/project/overview.js';
import { fileChangeDiff } from '../../src/tools/file-diff.js';

describe('agentsFileContent', () => {
  it('keeps a plain answer, with exactly one final newline', () => {
    expect(agentsFileContent('\n# AGENTS.md\n\n- a\n\n\n')).toBe('# AGENTS.md\n\n- a\n');
  });

  it('removes one code fence around the whole answer but keeps fences inside it', () => {
    const inner = '# AGENTS.md\n\n```sh\nnpm test\n```';
    expect(agentsFileContent(`\`\`\`markdown\n${inner}\n\`\`\``)).toBe(`${inner}\n`);
    expect(agentsFileContent(inner)).toBe(`${inner}\n`);
  });

  it('gives an empty string for an empty answer', () => {
    expect(agentsFileContent(' \n ')).toBe('');
  });
});

describe('diffCounts', () => {
  it('counts added and removed lines, not the file headers', () => {
    const diff = fileChangeDiff('AGENTS.md', '# A\nkeep\nold\n', '# A\nkeep\nnew\nmore\n');
    expect(diffCounts(diff)).toEqual({ added: 2, removed: 1 });
  });
});

describe('initPrompt', () => {
  const analyses = {
    projectType: 'languages: Go 3 files',
    conventions: 'scripts: none found',
    overview: 'layout:',
  };

  it('asks for a new file when there is none', () => {
    const prompt = initPrompt(analyses, undefined);
    expect(prompt).toMatch(/^Write AGENTS\.md/);
    expect(prompt).toContain('## Project type (detect_project_type)\nlanguages: Go 3 files');
    expect(prompt).not.toContain('existing AGENTS.md');
  });

  it("asks to update an existing file, keeping the user's sections, and includes it", () => {
    const prompt = initPrompt(analyses, '# Ours\n\nKeep me.\n');
    expect(prompt).toMatch(/^Update the existing AGENTS\.md/);
    expect(prompt).toContain("Keep the user's own sections");
    expect(prompt).toContain('## The existing AGENTS.md\n<<<\n# Ours\n\nKeep me.\n>>>');
  });
});

describe('firstSection', () => {
  it('ends at the first heading after some text, ATX or setext', () => {
    expect(firstSection('# T\n\nIntro.\n\n## Install\n\nnpm ci\n')).toBe('# T\n\nIntro.');
    expect(firstSection('T\n=\n\nIntro.\n\nInstall\n-------\nnpm ci\n')).toBe('T\n=\n\nIntro.');
    expect(firstSection('# T\n## Sub\n\nIntro.\n## Install\n')).toBe('# T\n## Sub\n\nIntro.');
  });

  it('leaves out what only renders as pictures: badges, images, HTML tags and comments, not code', () => {
    const readme = [
      '<p align="center">',
      '  <a href="https://x.org/"><img alt="logo" src="logo.png" width="350"></a>',
      '</p>',
      '<!-- a comment',
      'over lines -->',
      '<p align="center"><strong>HTTPX</strong> <em>- A next-generation HTTP client.</em></p>',
      '',
      '[![Build](https://ci/badge.svg)](https://ci) ![cov](https://cov.svg)',
      '',
      'Install it:',
      '```html',
      '<script src="x.js"></script>',
      '```',
      '<h2 align="center">Supporting</h2>',
      'Backers.',
    ].join('\n');
    expect(firstSection(readme)).toBe(
      'HTTPX - A next-generation HTTP client.\n\nInstall it:\n```html\n<script src="x.js"></script>\n```',
    );
  });

  it("reads an HTML line break as a space, and text nested in HTML without the HTML's indentation", () => {
    const readme = [
      '<div align="center">',
      '  <h3>Move fast and break nothing.<br />Typesafe APIs made easy.</h3>',
      '  <figure>',
      '      <p align="center">',
      '        The client imports <strong>no</strong> server code.',
      '      </p>',
      '  </figure>',
      '</div>',
    ].join('\n');
    expect(firstSection(readme)).toBe(
      '### Move fast and break nothing. Typesafe APIs made easy.\nThe client imports no server code.',
    );
  });

  it("leaves out thematic breaks, not a setext heading's underline", () => {
    expect(firstSection('# fzf\n\n---\n\nA fuzzy finder.\n\n***\n\nMore.\n')).toBe(
      '# fzf\n\nA fuzzy finder.\n\nMore.',
    );
    expect(firstSection('Title\n---\n\nIntro.\n')).toBe('Title\n---\n\nIntro.');
  });

  it('caps a long opening', () => {
    const text = firstSection(`# T\n${'line\n'.repeat(100)}`);
    expect(text.split('\n')).toHaveLength(40);
  });
});
