import { expect, test } from 'vitest';
import { localImage, sanitizeNews } from './sanitize-html.server';

/** The hostile part of the upstream's seeded article 2 (upstream/content/catalogue.ts), as the upstream serves it. */
const SEEDED_ARTICLE_2 =
  '<p>Gold rose for a second session as the dollar slipped after weaker-than-expected data.</p>' +
  '<p>Analysts watch the <a href="https://example.com/report" onclick="steal()">weekly report</a> for direction.</p>' +
  '<script>document.title="pwned"</script><img src="x" onerror="document.title=\'pwned\'"><iframe src="https://evil.example"></iframe>' +
  '<p style="position:fixed;top:0">Volatility remains elevated.</p>';

test('the seeded article keeps its words and loses its script, handlers, frame and style', () => {
  expect(sanitizeNews(SEEDED_ARTICLE_2)).toBe(
    '<p>Gold rose for a second session as the dollar slipped after weaker-than-expected data.</p>' +
      '<p>Analysts watch the <a href="https://example.com/report" rel="noopener noreferrer nofollow" target="_blank">weekly report</a> for direction.</p>' +
      '<p>Volatility remains elevated.</p>',
  );
});

test('scripts, event handlers, styles, frames, forms and foreign images never pass', () => {
  const out = sanitizeNews(
    '<p style="position:fixed" onclick="x()">Hi</p><script>alert(1)</script><img src="x" onerror="alert(1)"><iframe src="https://evil.example"></iframe>' +
      '<img src="https://tracker.example/p.gif"><img src="//tracker.example/p.gif"><img src="/static/logos/../../admin.svg">' +
      '<svg onload="alert(1)"></svg><style>body{display:none}</style><object data="x.swf"></object><form action="/x"><input name="a"></form>' +
      '<p class="x" id="y" data-x="1">Bye</p>',
  );
  expect(out).toBe('<p>Hi</p><p>Bye</p>');
});

test('only absolute http(s) links stay links; any other keeps its words only', () => {
  const out = sanitizeNews(
    '<p><a href="javascript:alert(1)">js</a> <a href="java&#x73;cript:alert(1)">encoded</a> <a href="data:text/html,x">data</a> ' +
      '<a href="//evil.example">relative</a> <a href="/mine">ours</a> <a>bare</a> <a href="HTTP://Example.com/A" target="_self">shout</a></p>',
  );
  expect(out).toBe(
    '<p>js encoded data relative ours bare <a href="HTTP://Example.com/A" rel="noopener noreferrer nofollow" target="_blank">shout</a></p>',
  );
});

test('the harmless tags stay as they are', () => {
  const html =
    '<h2>a</h2><h3>b</h3><h4>c</h4><p>d<br />e <strong>f</strong> <em>g</em></p><ul><li>h</li></ul><ol><li>i</li></ol><blockquote>j</blockquote>';
  expect(sanitizeNews(html)).toBe(html);
  expect(sanitizeNews('<h1>big</h1><h5>small</h5><b>bold</b><div><span>plain</span></div>')).toBe('bigsmallboldplain');
});

test('upstream logos come through our server, with their description', () => {
  expect(sanitizeNews('<p><img src="/static/logos/eurusd.svg" alt="EUR/USD" onerror="x()" width="9"></p>')).toBe(
    '<p><img src="/logos/eurusd.svg" alt="EUR/USD" /></p>',
  );
  expect(localImage('/static/logos/xauusd.svg')).toBe('/logos/xauusd.svg');
  expect(localImage('https://upstream.example/static/logos/xauusd.svg')).toBeNull();
  expect(localImage('/static/logos/x.png')).toBeNull();
  expect(localImage(undefined)).toBeNull();
});
