import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every relative link in the repository's Markdown leads to a file or folder of the repository,
 * and a link to a heading (`file.md#heading`) to a heading that file has, named as GitHub names
 * its anchors. Links to other sites are not followed.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const skipped = new Set(['node_modules', '.git', 'dist', 'coverage', 'data', 'test-results']);

const markdownFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (skipped.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });

/** The text outside fenced code blocks and inline code, where a link is a link. */
const prose = (markdown: string): string =>
  markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** `[text](target)` targets; the text may itself hold inline code, cut out above. */
const linkTargets = (markdown: string): string[] =>
  [...prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)].flatMap(([, target]) =>
    target === undefined ? [] : [target],
  );

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const anchors = (markdown: string): Set<string> =>
  new Set(
    prose(markdown)
      .split('\n')
      .filter((line) => /^#{1,6}\s/.test(line))
      .map((line) => anchorOf(line.replace(/^#+\s/, ''))),
  );

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** What is wrong with one link of `file`, or undefined when it resolves. */
const problem = (file: string, target: string): string | undefined => {
  if (isExternal(target)) return undefined;
  const [path = '', anchor] = target.split('#', 2);
  const resolved = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
  if (resolved !== root && !resolved.startsWith(root + sep)) return 'leads outside the repository';
  if (!existsSync(resolved)) return 'no such file';
  if (anchor === undefined || !resolved.endsWith('.md') || statSync(resolved).isDirectory())
    return undefined;
  return anchors(readFileSync(resolved, 'utf8')).has(anchor) ? undefined : 'no such heading';
};

describe('links in the documentation', () => {
  it('reads links and anchors as GitHub does', () => {
    expect(linkTargets('see [a](x.md) and [`b.ts`](src/b.ts#L1), not `[c](y.md)`')).toEqual([
      'x.md',
      'src/b.ts#L1',
    ]);
    expect(linkTargets('```\n[a](inside-code.md)\n```\n[b](after.md)')).toEqual(['after.md']);
    expect(anchorOf('10. Bidding rules')).toBe('10-bidding-rules');
    expect(anchorOf('Running on EventStoreDB and MongoDB')).toBe(
      'running-on-eventstoredb-and-mongodb',
    );
  });

  it('finds the map and its pages', () => {
    const files = markdownFiles(root).map((file) => relative(root, file));
    expect(files).toContain('ARCHITECTURE.md');
    expect(files).toContain('README.md');
  });

  it.each(markdownFiles(root).map((file) => [relative(root, file), file]))(
    '%s: every relative link resolves',
    (_name, file) => {
      const broken = linkTargets(readFileSync(file, 'utf8'))
        .map((target) => ({ target, problem: problem(file, target) }))
        .filter((link) => link.problem !== undefined);
      expect(broken).toEqual([]);
    },
  );
});
