/** Document chunking: chunks stay under the limit and keep every word, in order. */
import fc from 'fast-check';
import { chunkText } from 'golem/memory';

test('paragraphs are packed together up to the limit', () => {
  expect(chunkText('one\n\ntwo\n\n\nthree', 9)).toEqual(['one\n\ntwo', 'three']);
});

test('a long paragraph is cut at its last space before the limit, or hard without one', () => {
  expect(chunkText('aaaa bbbb cccc', 10)).toEqual(['aaaa bbbb', 'cccc']);
  expect(chunkText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
});

test('empty and blank texts give no chunks', () => {
  expect(chunkText('  \n\n \n')).toEqual([]);
});

test('property: every chunk fits and the words survive in order', () => {
  const word = fc.stringMatching(/^[a-z]{1,12}$/);
  const paragraph = fc.array(word, { minLength: 1, maxLength: 30 }).map((w) => w.join(' '));
  fc.assert(
    fc.property(
      fc.array(paragraph, { minLength: 1, maxLength: 10 }),
      fc.integer({ min: 12, max: 200 }),
      (paragraphs, max) => {
        const chunks = chunkText(paragraphs.join('\n\n'), max);
        for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(max);
        expect(chunks.join(' ').split(/\s+/)).toEqual(paragraphs.join(' ').split(/\s+/));
      },
    ),
  );
});
