/**
 * The guides travel with the package and every link in them works from an installed copy:
 *
 * - `npm pack --dry-run` (the real packing rules of package.json `files`) holds README.md, every docs/*.md
 *   guide and the simulator's guide beside bin/ (the CLI's `guide:` line), and nothing of docs/api;
 * - every relative link of README.md and the markdown under docs/ (outside code) points to a file that exists
 *   and is in the package, and its `#anchor`, if any, to a heading of that file;
 * - every websocket url literal in their TypeScript blocks has the path the library expects: `/quote/ws/v1`
 *   (marketStreams) or `/api/v1/ws` (userStream, without a listen key);
 * - they are for users: README.md and each guide at most 40 KB, all of them at most 300 KB; no issue numbers, numbered
 *   work rounds or "the Nth pass" (development history goes to notes/, which is not packed); no source or spec path
 *   (`lib/…`, `spec/…`, `scripts/…`: the package has no sources) and no example path that is not in the package.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { markdownFiles, tsBlocks } from './markdownBlocks';

const root = path.resolve(__dirname, '..', '..');

/** The files `npm pack` would put in the tarball (paths relative to the package root, forward slashes). */
const packedFiles = (): Set<string> => {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const out = execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [pack] = JSON.parse(out) as Array<{ files: Array<{ path: string }> }>;
  return new Set((pack?.files ?? []).map((f) => f.path));
};

/** A markdown link outside code: `[text](target)` or `![alt](target)`, with its 1-based line. */
interface Link {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

const blank = (m: string): string => m.replace(/[^\n]/g, ' ');

/** Fenced blocks blanked (same length, newlines kept). */
const withoutFences = (text: string): string =>
  text.replace(/^( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n {0,3}\2[`~]*[ \t]*$/gm, blank);

/** Fenced blocks, then inline code, blanked: a link in code is not a link. */
const withoutCode = (text: string): string => withoutFences(text).replace(/(`+)[^`][\s\S]*?\1/g, blank);

export const linksOf = (file: string, text: string): Link[] => {
  const prose = withoutCode(text);
  const links: Link[] = [];
  for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    links.push({ file, line: prose.slice(0, m.index).split('\n').length, target: m[1] ?? '' });
  }
  return links;
};

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to `-`, repeats suffixed `-1`, `-2`. */
export const anchorsOf = (text: string): Set<string> => {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const prose = withoutFences(text);
  for (const m of prose.matchAll(/^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = (m[1] ?? '')
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
};

const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

const read = (rel: string): string => fs.readFileSync(path.join(root, rel), 'utf8');

/** The packed guides' size caps: a guide a user reads, not a lab notebook (history goes to notes/). */
const MAX_GUIDE_BYTES = 40_000;
const MAX_GUIDES_BYTES = 300_000;

/** Words of development history: issue numbers, numbered work rounds, "the Nth pass". */
const HISTORY_WORDS: readonly RegExp[] = [
  /\bissues? #?\d+/i,
  /(?<![\w&/])#\d+\b/,
  /\bwork rounds?\b/i,
  /\brounds? (?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b/i,
  /\b(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|previous) pass\b/i,
  /\bpass(?:es)? \d+\b/i,
  /\b\d+ passes\b/i,
];

/**
 * Paths that exist only in a clone: sources, specs, scripts (outside fenced code). The benchmark runs from a clone
 * only, so the performance page may name its files (`spec/bench/…`).
 */
const CLONE_PATH = /(?<![\w./-])(?:lib|spec|scripts)\/[\w.-]/;
const ALLOWED_CLONE_PATHS: Readonly<Record<string, RegExp>> = { 'docs/performance.md': /^spec\/b/ };

/** Every example path mentioned outside fenced code (`docs/examples/...`). */
const EXAMPLE_PATH = /(?<![\w./-])(?:docs\/)?examples\/[\w./-]*[\w-]/g;

/** The history words, clone paths and unpacked example paths of one text, as `line: excerpt`. */
export const unwantedIn = (text: string, packed: ReadonlySet<string>, dir = '', file = ''): string[] => {
  const found: string[] = [];
  const prose = withoutFences(text);
  const lines = prose.split('\n');
  const allowed = ALLOWED_CLONE_PATHS[file];
  lines.forEach((line, i) => {
    for (const re of HISTORY_WORDS) {
      const m = re.exec(line);
      if (m !== null) found.push(`${i + 1}: ${m[0]}`);
    }
    for (const m of line.matchAll(new RegExp(CLONE_PATH.source, 'g'))) {
      if (allowed === undefined || !allowed.test(line.slice(m.index))) found.push(`${i + 1}: ${m[0]}`);
    }
    for (const m of line.matchAll(EXAMPLE_PATH)) {
      const rel = m[0].startsWith('docs/') ? m[0] : path.posix.join(dir, m[0]);
      if (![...packed].some((f) => f === rel || f.startsWith(`${rel.replace(/\/$/, '')}/`))) found.push(`${i + 1}: ${m[0]} (not in the package)`);
    }
  });
  return found;
};

describe('the guides travel in the package', () => {
  let packed: Set<string>;
  beforeAll(() => {
    packed = packedFiles();
  });

  test('README.md, every docs/*.md guide and the bin are packed', () => {
    const guides = fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    expect(guides.length).toBeGreaterThan(5);
    const missing = ['README.md', 'bin/ex-streams-simulator.js', ...guides].filter((f) => !packed.has(f));
    expect(missing).toEqual([]);
  });

  test("the CLI's guide line points into the package: bin/ finds docs/simulator.md beside it", () => {
    const bin = read('bin/ex-streams-simulator.js');
    expect(bin).toMatch(/path\.join\(root, 'docs', 'simulator\.md'\)/);
    expect(bin).toMatch(/const root = path\.join\(__dirname, '\.\.'\)/);
    expect(packed.has('docs/simulator.md')).toBe(true);
  });

  test('docs/api (the generated reference), installs and lockfiles of the examples stay out; the docs stay small', () => {
    const docs = [...packed].filter((f) => f.startsWith('docs/'));
    expect(docs.filter((f) => /^docs\/api\/|node_modules|package-lock\.json$|\.tgz$/.test(f))).toEqual([]);
    const bytes = docs.reduce((sum, f) => sum + fs.statSync(path.join(root, f)).size, 0);
    // the guides (below) and the example sources that ship beside them
    expect(bytes).toBeLessThan(550_000);
  });

  test('README.md and each guide are at most 40 KB, all of them at most 300 KB', () => {
    const guides = ['README.md', ...[...packed].filter((f) => /^docs\/[^/]+\.md$/.test(f)).sort()];
    const sizes = guides.map((f) => [f, fs.statSync(path.join(root, f)).size] as const);
    expect(sizes.filter(([, size]) => size > MAX_GUIDE_BYTES)).toEqual([]);
    expect(sizes.reduce((sum, [, size]) => sum + size, 0)).toBeLessThanOrEqual(MAX_GUIDES_BYTES);
  });

  test('every relative link of README.md and docs/ points to a packed file (and an existing heading)', () => {
    const files = markdownFiles(root);
    expect(files).toContain('README.md');
    const broken: string[] = [];
    let checked = 0;
    for (const file of files) {
      for (const link of linksOf(file, read(file))) {
        if (isExternal(link.target)) continue;
        checked += 1;
        const [pathPart = '', anchor] = link.target.split('#', 2);
        const target = pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(pathPart)));
        const where = `${file}:${link.line} (${link.target})`;
        if (target.startsWith('../') || !fs.existsSync(path.join(root, target))) broken.push(`${where}: no such file`);
        else if (fs.statSync(path.join(root, target)).isDirectory()) {
          if (![...packed].some((f) => f.startsWith(`${target.replace(/\/$/, '')}/`))) broken.push(`${where}: not in the package`);
        } else if (!packed.has(target)) broken.push(`${where}: not in the package (package.json files)`);
        else if (anchor !== undefined && anchor !== '' && target.endsWith('.md') && !anchorsOf(read(target)).has(anchor)) {
          broken.push(`${where}: no heading #${anchor}`);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });
});

describe('websocket urls in the doc examples', () => {
  test('every ws:// or wss:// literal of a TypeScript block ends in /quote/ws/v1, /quote/ws/v2 or /api/v1/ws', () => {
    const wrong: string[] = [];
    let seen = 0;
    for (const file of markdownFiles(root)) {
      for (const block of tsBlocks(file, read(file))) {
        for (const m of block.code.matchAll(/(['"`])(wss?:\/\/[^'"`\s]*)\1/g)) {
          seen += 1;
          const url = m[2] ?? '';
          const line = block.line + block.code.slice(0, m.index).split('\n').length - 1;
          let pathname: string;
          try {
            pathname = new URL(url).pathname;
          } catch {
            pathname = url;
          }
          if (pathname !== '/quote/ws/v1' && pathname !== '/quote/ws/v2' && pathname !== '/api/v1/ws') wrong.push(`${file}:${line} ${url}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(seen).toBeGreaterThan(5);
  });
});

describe('the link and anchor readers', () => {
  test('find links outside code only, with their line', () => {
    const text = ['[a](x.md) `[b](y.md)`', '```md', '[c](z.md)', '```', '![img](pic.png "t") [d](<w.md#h>)'].join('\n');
    expect(linksOf('f.md', text).map((l) => `${l.line} ${l.target}`)).toEqual(['1 x.md', '5 pic.png', '5 w.md#h']);
  });

  test("make GitHub's anchors", () => {
    const text = ['# Title', '## 4. The user stream and its `listen key`', '## Title', '```', '# not a heading', '```'].join('\n');
    expect([...anchorsOf(text)]).toEqual(['title', '4-the-user-stream-and-its-listen-key', 'title-1']);
  });
});

describe('the guides are for users', () => {
  let packed: Set<string>;
  beforeAll(() => {
    packed = packedFiles();
  });

  test('no issue numbers, work rounds or passes, no source paths, no example that is not packed', () => {
    const files = markdownFiles(root).filter((f) => packed.has(f));
    expect(files).toContain('README.md');
    const found = files.flatMap((f) => unwantedIn(read(f), packed, path.posix.dirname(f), f).map((w) => `${f}:${w}`));
    expect(found).toEqual([]);
  });

  test('the check finds what it is meant to find', () => {
    const pack = new Set(['docs/examples/demo/main.ts', 'README.md']);
    const text = [
      'As issue 41 said, and #41 too.', // 1
      'The third pass, in work round 7.', // 2
      'See `lib/socket/connection.ts` or spec/docs/links.spec.ts.', // 3
      'Run docs/examples/replay/main.ts, or docs/examples/demo/main.ts.', // 4
      '```ts', // 5
      "// lib/index.ts inside code is fine, as is issue 3 there", // 6
      '```', // 7
      'A round trip; it passes the value on; [link](docs/a.md#4-heading); rounds down.', // 8
    ].join('\n');
    expect(unwantedIn(text, pack)).toEqual([
      '1: issue 41',
      '1: #41',
      '2: work round',
      '2: round 7',
      '2: third pass',
      '3: lib/s',
      '3: spec/d',
      '4: docs/examples/replay/main.ts (not in the package)',
    ]);
    expect(unwantedIn('Run spec/bench/main.ts, not lib/x.ts.', pack, 'docs', 'docs/performance.md')).toEqual(['1: lib/x']);
  });
});

describe('the guides are reachable', () => {
  test('README.md links every docs/*.md guide', () => {
    const linked = new Set(linksOf('README.md', read('README.md')).map((l) => l.target.split('#', 1)[0]));
    const guides = fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    expect(guides.filter((g) => !linked.has(g))).toEqual([]);
  });
});
