import { describe, expect, it } from 'vitest';
import { sanitizePageContent } from './sanitize-page-content.ts';

const clean = sanitizePageContent;

/** Nothing in the output a browser would run. */
function expectInert(html: string) {
  const lower = html.toLowerCase();
  expect(lower).not.toMatch(/<\s*(script|style|iframe|object|embed|svg|math|form|input|base|meta|link)\b/);
  expect(lower).not.toMatch(/\son[a-z]+\s*=/);
  expect(lower).not.toMatch(/javascript:|vbscript:|data:|expression\(/);
  expect(lower).not.toContain('style=');
}

describe('sanitizePageContent: injection vectors', () => {
  it('drops <script> with its body', () => {
    const out = clean(
      '<p>Hi</p><script>alert(document.cookie)</script><SCRIPT src="https://evil.example/x.js"></SCRIPT>',
    );
    expect(out).toBe('<p>Hi</p>');
  });

  it('drops event handler attributes and an image without an http(s) src', () => {
    expect(clean('<img src=x onerror="alert(1)">')).toBe('');
    const kept = clean('<img src="https://cdn.example/a.png" onerror="alert(1)" onload=alert(2) alt="A">');
    expect(kept).toBe('<img src="https://cdn.example/a.png" alt="A" />');
    const paragraph = clean('<p onclick="alert(1)" onmouseover="x()">text</p>');
    expect(paragraph).toBe('<p>text</p>');
  });

  it('removes javascript: hrefs in any case, with entities, control characters or whitespace', () => {
    const vectors = [
      '<a href="javascript:alert(1)">x</a>',
      '<a href="JaVaScRiPt:alert(1)">x</a>',
      '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
      '<a href="&#x6A;avascript&#x3A;alert(1)">x</a>',
      '<a href="java&#x09;script:alert(1)">x</a>',
      '<a href="java\nscript:alert(1)">x</a>',
      '<a href=" javascript:alert(1)">x</a>',
      '<a href="&#0000106avascript:alert(1)">x</a>',
      '<a href="vbscript:msgbox(1)">x</a>',
      '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
    ];
    for (const vector of vectors) {
      const out = clean(vector);
      expect(out, vector).toBe('<a>x</a>');
    }
  });

  it('drops <svg onload>, <iframe>, <object>, <embed>, <style>, forms and <math>', () => {
    const out = clean(
      [
        '<svg onload="alert(1)"><circle r="1"></circle></svg>',
        '<iframe src="https://evil.example"></iframe>',
        '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
        '<object data="https://evil.example/x.swf"></object>',
        '<embed src="https://evil.example/x.swf">',
        '<style>body { background: url(javascript:alert(1)) }</style>',
        '<form action="https://evil.example"><input name="q"><button>Go</button></form>',
        '<math><mtext><a href="javascript:alert(1)">m</a></mtext></math>',
        '<base href="https://evil.example/">',
        '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
        '<link rel="stylesheet" href="https://evil.example/x.css">',
      ].join(''),
    );
    expectInert(out);
    expect(out).not.toContain('https://evil.example');
  });

  it('drops style attributes, with expression() or url(javascript:) or not', () => {
    const out = clean(
      [
        '<p style="width: expression(alert(1))">a</p>',
        '<div style="background-image: url(javascript:alert(1))">b</div>',
        '<span style="color: red">c</span>',
      ].join(''),
    );
    expect(out).toBe('<p>a</p><div>b</div><span>c</span>');
  });

  it('drops img with a data: or javascript: or relative src', () => {
    expect(clean('<img src="data:image/png;base64,AAAA">')).toBe('');
    expect(clean('<img src="javascript:alert(1)">')).toBe('');
    expect(clean('<img src="/relative.png">')).toBe('');
    expect(clean('<img src="//cdn.example/a.png">')).toBe('');
  });

  it('does not let markup hidden in text or attributes out', () => {
    const out = clean(
      '<p title="&quot;><script>alert(1)</script>">t</p><textarea><img src=x onerror=alert(1)></textarea>',
    );
    expectInert(out);
    expect(out).not.toMatch(/<img/);
  });
});

describe('sanitizePageContent: safe markup', () => {
  it('keeps the documented formatting tags and attributes', () => {
    const safe = [
      '<h1>Title</h1><h2>Sub</h2><h3>3</h3><h4>4</h4><h5>5</h5><h6>6</h6>',
      '<p>Plain <strong>bold</strong> <em>em</em> <b>b</b> <i>i</i> <u>u</u> <s>s</s> <code>c</code><br />line</p>',
      '<hr />',
      '<blockquote cite="https://source.example/quote">Quote</blockquote>',
      '<ul><li>one</li><li>two</li></ul><ol start="3"><li>three</li></ol>',
      '<a href="https://shop.example/about" title="About">About</a>',
      '<a href="http://shop.example">http</a>',
      '<a href="mailto:help@shop.example">mail</a>',
      '<a href="tel:+15551234567">call</a>',
      '<a href="/pages/shipping">relative</a>',
      '<a href="#faq">anchor</a>',
      '<img src="https://cdn.example/photo.jpg" alt="Photo" width="640" height="480" />',
      '<figure><img src="http://cdn.example/p.png" alt="" /><figcaption>Caption</figcaption></figure>',
      '<table><caption>Sizes</caption><thead><tr><th scope="col">Size</th></tr></thead><tbody><tr><td colspan="2">M</td></tr></tbody></table>',
      '<pre><code>npm i</code></pre>',
    ].join('');
    expect(clean(safe)).toBe(safe);
  });

  it('keeps text and escapes it', () => {
    expect(clean('5 < 6 & 7 > 3')).toBe('5 &lt; 6 &amp; 7 &gt; 3');
    expect(clean('<p>Fish &amp; chips</p>')).toBe('<p>Fish &amp; chips</p>');
  });

  it('drops unknown tags but keeps their text', () => {
    expect(clean('<custom-widget>inside</custom-widget><font color="red">old</font>')).toBe('insideold');
  });

  it('removes class, id and other unlisted attributes', () => {
    expect(clean('<p class="x" id="y" data-track="z">p</p>')).toBe('<p>p</p>');
    expect(clean('<a href="https://a.example" target="_blank" rel="opener">a</a>')).toBe(
      '<a href="https://a.example">a</a>',
    );
  });
});
