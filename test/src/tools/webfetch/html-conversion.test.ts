/** web_fetch WF-10: HTML conversion with html-to-text, and the nesting guard in front of it. */
import { webFetch, type WebFetchOptions } from 'golem/tools/webfetch';
import { fetchText, serve, useRouter } from './support';

const LOCAL: WebFetchOptions = { allowPrivateHosts: ['127.0.0.1'] };
const site = useRouter();

/** Serves `body` at `/page` and fetches it. */
async function fetchServed(
  body: string | Buffer,
  contentType: string,
  options: WebFetchOptions = LOCAL,
): Promise<string> {
  site.routes['/page'] = serve(body, contentType);
  return fetchText(webFetch(options), `${site.server.origin}/page`);
}

describe('WF-10 HTML conversion (html-to-text)', () => {
  test.each([
    [
      'a document with head noise',
      '<html><head><meta charset="utf-8"><link rel="stylesheet" href="x.css"><title>T</title><script>x()</script></head><body><main><p>Body</p></main></body></html>',
      'T\nBody',
    ],
    ['inline tags keep words together', 'so<b>me</b>thing <i>else</i>', 'something else'],
    ['paragraphs and breaks', '<p>a<br>b</p><p>c</p>', 'a\nb\nc'],
    ['a quoted ">" inside an attribute', '<a title="x>y" href="/z">link</a> after', 'link after'],
    ['entities are decoded', '&lt;p&gt; caf&eacute; &amp; &#x1F600;', '<p> café & 😀'],
    ['an unclosed script drops the rest', 'before<script>alert("x")', 'before'],
    ['an unclosed comment drops the rest', 'before<!-- never closed <p>x</p>', 'before'],
    ['a self-closing br', 'a<br/>b', 'a\nb'],
    ['a closing tag with a space', '<div>x</div >y', 'x\ny'],
    [
      'indentation collapses',
      '   <div>\n      indented\n        text\n   </div>   ',
      'indented text',
    ],
    [
      'list items on their own lines',
      '<ul><li>one</li><li>two</li></ul><ol><li>x</li><li>y</li></ol>',
      '* one\n* two\n1. x\n2. y',
    ],
    ['plain text', 'just text', 'just text'],
    ['a document without <body>', '<!doctype html><title>X</title><p>Hello', 'X\nHello'],
    [
      'head text other than the title is dropped',
      '<head><meta name="d" content="hidden"><style>p{}</style></head><p>shown</p>',
      'shown',
    ],
    ['empty', '', ''],
    ['headings keep their case', '<h1>Mixed Case</h1><h2>Sub</h2>', 'Mixed Case\nSub'],
    [
      'table cells on their own lines',
      '<table><tr><th>Name</th><td>Golem</td></tr></table>',
      'Name\nGolem',
    ],
    [
      'links without targets, images as alt text',
      '<p>See <a href="https://e.test/x">the docs</a> <img src="d.png" alt="Diagram"></p>',
      'See the docs Diagram',
    ],
    [
      'templates and svg are skipped',
      '<template><p>t</p></template><svg><text>icon</text></svg><p>kept</p>',
      'kept',
    ],
  ])('%s', async (_name, html, expected) => {
    expect(await fetchServed(html, 'text/html')).toBe(expected);
  });

  test('includeLinks keeps link targets and image sources', async () => {
    expect(
      await fetchServed(
        '<p>See <a href="https://e.test/x">the docs</a> <img src="https://e.test/d.png" alt="Diagram"></p>',
        'text/html',
        { ...LOCAL, includeLinks: true },
      ),
    ).toBe('See the docs [https://e.test/x] Diagram [https://e.test/d.png]');
  });

  test('nesting past 512 is cut before conversion, with the marker at the cut', async () => {
    const html = `top${'<div>'.repeat(50_000)}deep${'</div>'.repeat(50_000)}<p>after</p>`;
    expect(await fetchServed(html, 'text/html')).toBe(
      'top\n\n[webfetch: response truncated at 2563 bytes]',
    );
  });

  test('nesting of 500 converts whole; script comparisons and comments do not count', async () => {
    const html =
      `<script>${'if (a<b) { c<d; }'.repeat(3000)}</script><!-- ${'<div>'.repeat(3000)} -->` +
      `${'<div>'.repeat(500)}deep${'</div>'.repeat(500)}<p>after</p>`;
    expect(await fetchServed(html, 'text/html')).toBe('deep\nafter');
  });
});
