import { readFileSync } from 'node:fs';
import { join } from 'node:path';

describe('docs/testing.md', () => {
  it('shows spec/testing/spreadAlert.spec.ts as is, with the package import paths', () => {
    const doc = readFileSync(join(__dirname, '../../docs/testing.md'), 'utf8');
    const spec = readFileSync(join(__dirname, 'spreadAlert.spec.ts'), 'utf8')
      .replace(/from '\.\.\/\.\.\/lib\/index';/g, "from 'ex-streams';")
      .replace(/from '\.\.\/\.\.\/lib\/([a-z]+)(\/index)?';/g, "from 'ex-streams/$1';");
    const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks).toContain(spec);
  });
});
