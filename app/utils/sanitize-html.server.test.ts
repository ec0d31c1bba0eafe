import { expect, test } from 'vitest';
import { sanitizeNews } from './sanitize-html.server';

test('scripts, event handlers, styles, frames and foreign images never pass', () => {
  const out = sanitizeNews(
    '<p style="position:fixed" onclick="x()">Hi</p><script>alert(1)</script><img src="x" onerror="alert(1)"><iframe src="https://evil.example"></iframe>' +
      '<a href="javascript:alert(1)">js</a><img src="https://tracker.example/p.gif"><svg onload="alert(1)"></svg>',
  );
  expect(out).not.toMatch(/script|onerror|onclick|onload|style=|iframe|javascript:|tracker|<svg/i);
  expect(out).toContain('<p>Hi</p>');
});

test('links open outside and say nothing about us; upstream logos come through our server', () => {
  const out = sanitizeNews(
    '<p><a href="https://example.com/report">report</a></p><p><img src="/static/logos/eurusd.svg" alt="EUR/USD"></p>',
  );
  expect(out).toContain('<a href="https://example.com/report" rel="noopener noreferrer nofollow" target="_blank">report</a>');
  expect(out).toContain('<img src="/logos/eurusd.svg" alt="EUR/USD" />');
});
