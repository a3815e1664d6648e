import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The documentation is a set of pages that link to each other and into the repository: a page
 * moved or a heading renamed must not leave a reader on a dead link. Every relative link in the
 * README, CONTRIBUTING, CHANGELOG and docs/ must name a file that exists, and its #fragment a
 * heading of that page (GitHub's anchors).
 */

const ROOT = path.resolve(__dirname, '../..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return markdownFiles(file);
    return name.endsWith('.md') ? [file] : [];
  });
}

const PAGES = [
  ...['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'].map((name) => path.join(ROOT, name)),
  ...markdownFiles(path.join(ROOT, 'docs')),
];

/** The lines of a page outside fenced code blocks, with their numbers. */
function proseLines(text: string): Array<[number, string]> {
  let fenced = false;
  const lines: Array<[number, string]> = [];
  text.split('\n').forEach((line, index) => {
    if (line.startsWith('```')) fenced = !fenced;
    else if (!fenced) lines.push([index + 1, line]);
  });
  return lines;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  for (const [, line] of proseLines(readFileSync(file, 'utf8'))) {
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (heading === null) continue;
    const base = headingAnchor(heading[1] as string);
    const seen = counts.get(base) ?? 0;
    anchors.add(seen === 0 ? base : `${base}-${seen}`);
    counts.set(base, seen + 1);
  }
  return anchors;
}

interface Link {
  page: string;
  line: number;
  href: string;
}

function relativeLinks(page: string): Link[] {
  const links: Link[] = [];
  for (const [line, text] of proseLines(readFileSync(page, 'utf8'))) {
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const href = match[1] as string;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(href)) links.push({ page, line, href });
    }
  }
  return links;
}

/** What is wrong with a link, or null when it leads somewhere. */
function brokenReason({ page, href }: Link): string | null {
  const [target, fragment] = href.split('#', 2) as [string, string | undefined];
  const file = target === '' ? page : path.resolve(path.dirname(page), decodeURI(target));
  if (!existsSync(file)) return `no file ${path.relative(ROOT, file)}`;
  if (fragment === undefined || !file.endsWith('.md')) return null;
  return anchorsOf(file).has(fragment) ? null : `no heading #${fragment} in ${path.relative(ROOT, file)}`;
}

test('the documentation pages exist', () => {
  for (const page of PAGES) expect(existsSync(page)).toBe(true);
});

test('every relative link in the documentation leads to a file, and its #fragment to a heading there', () => {
  const broken = PAGES.flatMap(relativeLinks)
    .map((link) => ({ link, reason: brokenReason(link) }))
    .filter(({ reason }) => reason !== null)
    .map(({ link, reason }) => `${path.relative(ROOT, link.page)}:${link.line}: (${link.href}) ${reason}`);
  expect(broken).toEqual([]);
});

test('the README stays a front page: at most 250 lines, the rest in docs/', () => {
  const lines = readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length;
  expect(lines).toBeLessThanOrEqual(250);
});
