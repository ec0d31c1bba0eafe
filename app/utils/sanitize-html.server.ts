/**
 * News HTML as the trader may see it (issue 8): a short list of harmless tags, links that open outside
 * and tell nothing about us, and images only through our own web server. No script, no event handler,
 * no style, no frame ever reaches the page.
 */
import sanitizeHtml from 'sanitize-html';

/** Our web server's address of an upstream logo, or null for any other image source. */
export function localImage(src: string | undefined): string | null {
  const m = /^\/static\/logos\/([a-z0-9]{2,16}\.svg)$/.exec(src ?? '');
  return m ? `/logos/${m[1]}` : null;
}

export function sanitizeNews(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ['p', 'br', 'h2', 'h3', 'h4', 'strong', 'em', 'b', 'i', 'ul', 'ol', 'li', 'blockquote', 'a', 'img'],
    allowedAttributes: { a: ['href', 'rel', 'target'], img: ['src', 'alt'] },
    allowedSchemes: ['https', 'http'],
    allowedSchemesByTag: { img: [] },
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    transformTags: {
      a: (tagName, attribs) => ({ tagName, attribs: { href: attribs.href ?? '', rel: 'noopener noreferrer nofollow', target: '_blank' } }),
      img: (tagName, attribs): sanitizeHtml.Tag => {
        const src = localImage(attribs.src);
        return src ? { tagName, attribs: { src, alt: attribs.alt ?? '' } } : { tagName: 'span', attribs: {} as Record<string, string> };
      },
    },
    exclusiveFilter: (frame) => frame.tag === 'span' && !frame.text.trim(),
  });
}
