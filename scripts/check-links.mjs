// Checks every relative link and image of the project's Markdown files: the file it names must exist and, for
// `path#anchor` or `#anchor`, have a heading whose GitHub-style slug is that anchor. Web addresses are not checked
// (no network here, and their health is not ours to promise). `npm run check:links`, part of `npm test`.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const root = process.cwd();

/** The Markdown files git knows of: tracked, and new ones not ignored (so a guide is checked before its commit). */
function markdownFiles() {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', '*.md'], {
    encoding: 'utf8',
  });
  return [...new Set(out.split('\0').filter(Boolean))].filter((file) => existsSync(join(root, file)));
}

/** A file's lines with fenced code blocks blanked out, so their text is neither a link nor a heading. */
function proseLines(text) {
  let fence = null;
  return text.split('\n').map((line) => {
    const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length) fence = null;
      return '';
    }
    if (opening) {
      fence = opening[1];
      return '';
    }
    return line;
  });
}

/** A heading's text as GitHub renders it: links, emphasis and HTML tags reduced to their words, code kept as is. */
function headingText(raw) {
  return raw
    .replace(/\s+#+\s*$/, '')
    .split(/(`+[^`]*`+)/)
    .map((part, i) =>
      i % 2
        ? part.replace(/^`+|`+$/g, '')
        : part
            .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
            .replace(/<\/?[a-z][^>]*>/gi, '')
            .replace(/[*~]+/g, '')
            .replace(/(^|[^\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu, '$1'),
    )
    .join('');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(text) {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const anchorCache = new Map();

/** Every anchor a Markdown file offers: its headings' slugs (repeats numbered as GitHub does) and HTML ids. */
function anchorsOf(file) {
  let anchors = anchorCache.get(file);
  if (anchors) return anchors;
  anchors = new Set();
  const seen = new Map();
  for (const line of proseLines(readFileSync(file, 'utf8'))) {
    const heading = /^\s{0,3}#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      const base = slug(headingText(heading[1]));
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const match of line.matchAll(/<[a-z]+\s[^>]*\b(?:id|name)="([^"]+)"/gi)) anchors.add(match[1]);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

/** The links and images of one line: inline `[text](target "title")` and reference definitions `[x]: target`. */
function linksOf(line) {
  const bare = line.replace(/(`+)[\s\S]*?\1/g, (code) => ' '.repeat(code.length));
  const targets = [];
  for (const match of bare.matchAll(/\]\(\s*(<[^>]*>|[^)\s]*(?:\([^)\s]*\)[^)\s]*)*)(?:\s+["'(][^)]*)?\)/g)) {
    targets.push(match[1].replace(/^<|>$/g, ''));
  }
  const definition = /^\s{0,3}\[[^\]]+\]:\s*(\S+)/.exec(bare);
  if (definition) targets.push(definition[1].replace(/^<|>$/g, ''));
  return targets;
}

const problems = [];
const files = markdownFiles();
for (const file of files) {
  const path = join(root, file);
  proseLines(readFileSync(path, 'utf8')).forEach((line, index) => {
    for (const target of linksOf(line)) {
      if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
      const hash = target.indexOf('#');
      const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash)).replace(/\?.*$/, '');
      const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
      const resolved = pathPart
        ? normalize(pathPart.startsWith('/') ? join(root, pathPart) : join(dirname(path), pathPart))
        : path;
      const where = `${file}:${index + 1}: ${target}`;
      if (relative(root, resolved).startsWith('..')) {
        problems.push(`${where}: leaves the repository`);
      } else if (!existsSync(resolved)) {
        problems.push(`${where}: ${relative(root, resolved)} does not exist`);
      } else if (anchor) {
        if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) {
          problems.push(`${where}: an anchor on ${relative(root, resolved)}, which is no Markdown file`);
        } else if (!anchorsOf(resolved).has(anchor)) {
          problems.push(`${where}: ${relative(root, resolved)} has no heading #${anchor}`);
        }
      }
    }
  });
}

if (problems.length) {
  console.error(`${problems.length} broken relative link(s):\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`check:links: every relative link of ${files.length} Markdown files resolves.`);
