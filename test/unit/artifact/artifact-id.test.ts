import { describe, expect, it } from 'vitest';
import { artifactId } from '../../../src/artifact/artifact-id.js';
import { REQUIRED_ARTIFACT_FILES, type BugArtifact } from '../../../src/artifact/bug-artifact.js';
import { makeArtifact } from './artifact-factory.js';

/** Flip one byte of a text field (the test files list: one byte of its first path). */
function oneByteChanged(artifact: BugArtifact, key: (typeof REQUIRED_ARTIFACT_FILES)[number], at: number): BugArtifact {
  const flip = (text: string): string => `${text.slice(0, at)}${text[at] === 'x' ? 'y' : 'x'}${text.slice(at + 1)}`;
  if (key === 'testFiles') return { ...artifact, testFiles: [flip(artifact.testFiles[0]!), ...artifact.testFiles.slice(1)] };
  return { ...artifact, [key]: flip(artifact[key]) };
}

describe('artifactId', () => {
  const base = makeArtifact();

  it('is bug- and 16 hex chars, and stable for equal content', () => {
    expect(artifactId(base)).toMatch(/^bug-[0-9a-f]{16}$/);
    expect(artifactId(makeArtifact())).toBe(artifactId(base));
    expect(artifactId(structuredClone(base))).toBe(artifactId(base));
  });

  it.each(REQUIRED_ARTIFACT_FILES.flatMap((key) => [0, 5].map((at) => [key, at] as const)))('changes when one byte of %s changes (byte %i)', (key, at) => {
    expect(artifactId(oneByteChanged(base, key, at))).not.toBe(artifactId(base));
  });

  it.each([
    ['metadata added', { ...base, metadata: { strategy: 'removal' } }],
    ['test files reordered', makeArtifact({ testFiles: ['b.py', 'a.py'] }), makeArtifact({ testFiles: ['a.py', 'b.py'] })],
  ] as const)('ignores %s', (_name, changed, reference = base) => {
    expect(artifactId(changed)).toBe(artifactId(reference));
  });

  it('is unambiguous when bytes move from one file to the next', () => {
    const a = makeArtifact({ bugInject: 'ab', testWeaken: 'c' });
    const b = makeArtifact({ bugInject: 'a', testWeaken: 'bc' });
    expect(artifactId(a)).not.toBe(artifactId(b));
  });

  it('distinguishes one test file from two whose names join to it', () => {
    expect(artifactId(makeArtifact({ testFiles: ['a\nb'] }))).not.toBe(artifactId(makeArtifact({ testFiles: ['a', 'b'] })));
  });

  it('adds a trailing newline difference', () => {
    expect(artifactId(makeArtifact({ testScript: 'x' }))).not.toBe(artifactId(makeArtifact({ testScript: 'x\n' })));
  });
});
