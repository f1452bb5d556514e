import * as fs from 'fs';
import * as path from 'path';

/**
 * The marker that excludes a TypeScript block from the doc-example compile check. It goes in the fence's
 * info string, after the language: ```` ```ts no-check ````. Use it only for blocks that are not meant to
 * compile on their own (signature listings, pseudo-types, fragments).
 */
export const NO_CHECK_MARKER = 'no-check';

/** One fenced TypeScript block of a markdown file. */
export interface CodeBlock {
  /** Repository-relative path of the markdown file, with forward slashes. */
  readonly file: string;
  /** 1-based line of the first code line (the line after the opening fence). */
  readonly line: number;
  readonly code: string;
  readonly skip: boolean;
}

const TS_LANGUAGES = new Set(['ts', 'typescript']);
const OPEN_FENCE = /^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)(.*)$/;

/** Extracts the ```ts / ```typescript blocks of a markdown text (indentation of the fence removed). */
export const tsBlocks = (file: string, text: string): CodeBlock[] => {
  const lines = text.split(/\r?\n/);
  const blocks: CodeBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    const open = OPEN_FENCE.exec(lines[i] ?? '');
    if (open === null) {
      i += 1;
      continue;
    }
    const [, indent = '', fence = '', lang = '', rest = ''] = open;
    if (fence.startsWith('`') && rest.includes('`')) {
      i += 1; // backticks in the info string: inline code at the start of a line, not a fence (CommonMark)
      continue;
    }
    const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !close.test(lines[j] ?? '')) {
      const l = lines[j] ?? '';
      body.push(l.startsWith(indent) ? l.slice(indent.length) : l.trimStart());
      j += 1;
    }
    if (TS_LANGUAGES.has(lang.toLowerCase())) {
      blocks.push({ file, line: i + 2, code: body.join('\n'), skip: rest.split(/\s+/).includes(NO_CHECK_MARKER) });
    }
    i = j + 1;
  }
  return blocks;
};

const SKIPPED_DIRS = new Set(['api', path.join('examples', 'angular')]);

/** README.md and every markdown file under docs/ (except docs/api and docs/examples/angular). */
export const markdownFiles = (root: string): string[] => {
  const found: string[] = [];
  const walk = (rel: string): void => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const childRel = path.join(rel, entry.name);
      if (entry.isDirectory()) {
        const skipped = SKIPPED_DIRS.has(path.relative('docs', childRel)) || entry.name === 'node_modules' || entry.name.startsWith('.');
        if (!skipped) walk(childRel);
      } else if (entry.name.endsWith('.md')) {
        found.push(childRel);
      }
    }
  };
  walk('docs');
  return ['README.md', ...found.sort()].map((f) => f.split(path.sep).join('/'));
};

/**
 * Extracts the ```ts blocks of the doc comments of a TypeScript source (the `@example`s), with the source
 * file's line numbers. The leading ` * ` of each comment line is removed.
 */
export const docCommentBlocks = (file: string, source: string): CodeBlock[] => {
  const blocks: CodeBlock[] = [];
  for (const comment of source.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const firstLine = source.slice(0, comment.index).split('\n').length;
    const text = comment[0]
      .split('\n')
      .map((l) => l.replace(/^\s*\/\*\*\s?/, '').replace(/\s*\*\/$/, '').replace(/^\s*\* ?/, ''))
      .join('\n');
    for (const block of tsBlocks(file, text)) blocks.push({ ...block, line: block.line + firstLine - 1 });
  }
  return blocks;
};

/** Every TypeScript source under lib/ (sorted, forward slashes). */
export const librarySources = (root: string): string[] => {
  const found: string[] = [];
  const walk = (rel: string): void => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const childRel = path.join(rel, entry.name);
      if (entry.isDirectory()) walk(childRel);
      else if (entry.name.endsWith('.ts')) found.push(childRel.split(path.sep).join('/'));
    }
  };
  walk('lib');
  return found.sort();
};
