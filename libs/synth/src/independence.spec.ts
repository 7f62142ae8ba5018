import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The synthetic city must not share code, thresholds or rules with the scorer: a generator that wrote
 * records with the scorer's rules would make any validation circular.
 */
describe('the generator is independent of the scorer', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
    );

  it.each(files(__dirname).map((file) => [file.slice(__dirname.length + 1), file]))('%s imports nothing from the scoring lib', (_, file) => {
    const source = readFileSync(file, 'utf8');
    const imports = [...source.matchAll(/(?:from|import|require)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
    for (const target of imports) {
      expect(target).not.toMatch(/@bhis\/(scoring|score-runner)|libs\/scoring|\.\.\/\.\.\/scoring/);
    }
  });
});
