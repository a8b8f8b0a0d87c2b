/** The nesting guard in front of html-to-text: a linear estimate of element depth. */
import fc from 'fast-check';
import { MAX_NESTING, nestingCutIndex } from '../../../../src/tools/webfetch/nesting-guard';

describe('nestingCutIndex', () => {
  test.each<[string, string, number, number | undefined]>([
    ['flat markup', '<p>a</p><p>b</p>', 1, undefined],
    ['depth at the limit', '<div><div>x</div></div>', 2, undefined],
    ['depth past the limit cuts at the tag', 'ab<div><section><span>x', 2, 16],
    ['void elements do not nest', '<br><img src=x><hr><input>', 1, undefined],
    ['implied-end elements do not nest', '<ul><li>a<li>b<li>c</ul><p>1<p>2<p>3', 1, undefined],
    ['closing tags reduce the depth', '<b></b><i></i><u></u>', 1, undefined],
    ['stray closing tags do not go below zero', '</div></div><a><b>', 1, 3 + 12],
    ['comments are skipped', '<!-- <a><b><c> --><a>', 1, undefined],
    ['an unclosed comment ends the scan', '<a><!-- <b><c>', 1, undefined],
    ['script contents are skipped', '<script>if(a<b&&c<d){}</SCRIPT><i>', 1, undefined],
    ['an unclosed script ends the scan', '<script>a<b<c<d', 0, undefined],
    ['style contents are skipped', '<style>a<b{}</style>', 0, undefined],
    ['tag names are case-insensitive', '<DIV><Div><div>', 2, 10],
  ])('%s', (_name, html, limit, expected) => {
    expect(nestingCutIndex(html, limit)).toBe(expected);
  });

  test('the default limit is 512', () => {
    expect(MAX_NESTING).toBe(512);
    expect(nestingCutIndex('<div>'.repeat(512))).toBeUndefined();
    expect(nestingCutIndex('<div>'.repeat(513))).toBe(2560);
  });

  test('property: the cut index, when any, starts a tag and the prefix stays within the limit', () => {
    const piece = fc.constantFrom(
      '<div>',
      '</div>',
      '<p>',
      '<br>',
      'text',
      '<!--c-->',
      '<b>',
      '</b>',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 60 }),
        fc.integer({ min: 0, max: 8 }),
        (pieces, limit) => {
          const html = pieces.join('');
          const cut = nestingCutIndex(html, limit);
          if (cut === undefined) return;
          expect(html[cut]).toBe('<');
          expect(nestingCutIndex(html.slice(0, cut), limit)).toBeUndefined();
        },
      ),
    );
  });
});
