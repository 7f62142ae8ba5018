import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '../..');
const TEXT = /\.(ts|js|md|json|ya?ml)$/;

/** The repository's own text files (as git tracks them), with their contents. */
function trackedTexts(): { file: string; text: string }[] {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter((f) => TEXT.test(f));
  return files.filter((file) => existsSync(join(ROOT, file))).map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));
}

describe('documentation the code relies on lives in the repository', () => {
  const texts = trackedTexts();

  it('reads a real set of files', () => {
    expect(texts.length).toBeGreaterThan(300);
  });

  it('cites no design document outside the repository', () => {
    const outside = /shared\/(spec|design)\//;
    expect(texts.filter(({ text }) => outside.test(text)).map(({ file }) => file)).toEqual([]);
  });

  it('cites only documents of docs/ that exist', () => {
    const missing: string[] = [];
    for (const { file, text } of texts) {
      for (const [cited] of text.matchAll(/\bdocs\/[\w./-]+\.md\b/g)) {
        if (!existsSync(join(ROOT, cited))) missing.push(`${file}: ${cited}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('cites the design documents by their path, not by a bare file name', () => {
    // a bare name is a link only where the citing file sits beside the document (a relative link inside docs/)
    const bare = /(?<![\w./-])(sources|architecture|api-decisions|interface-spec)\.md\b/g;
    const unresolved: string[] = [];
    for (const { file, text } of texts) {
      for (const [cited] of text.matchAll(bare)) {
        if (!existsSync(join(ROOT, dirname(file), cited))) unresolved.push(`${file}: ${cited}`);
      }
    }
    expect(unresolved).toEqual([]);
  });
});
