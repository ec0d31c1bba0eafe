/**
 * News HTML as the trader may see it (issue 8): a short list of harmless tags, links that open outside
 * and tell nothing about us, and images only through our own web server. No script, no event handler,
 * no style, no frame ever reaches the page.
 */
import sanitizeHtml from 'sanitize-html';

/** Our web server's address of an upstream logo (served by the `/logos/<file>` route), or null for any other image source. */
export function localImage(src: string | undefined): string | null {
  const m = /^\/static\/logos\/([a-z0-9]{2,16}\.svg)$/.exec(src ?? '');
  return m ? `/logos/${m[1]}` : null;
}

const WEB_LINK = /^https?:\/\/[^/\s]/i;

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'h2', 'h3', 'h4', 'strong', 'em', 'ul', 'ol', 'li', 'blockquote', 'a', 'img'],
  allowedAttributes: { a: ['href', 'rel', 'target'], img: ['src', 'alt'] },
  allowedSchemes: ['https', 'http'],
  allowedSchemesByTag: { img: [] },
  allowProtocolRelative: false,
  allowedStyles: {},
  disallowedTagsMode: 'discard',
  // Tags keep their names: sanitize-html 2.17 misnames the next closing tag after a renamed tag it discards.
  transformTags: {
    a: (tagName, attribs): sanitizeHtml.Tag => ({
      tagName,
      attribs: WEB_LINK.test(attribs.href ?? '') ? { href: attribs.href!, rel: 'noopener noreferrer nofollow', target: '_blank' } : {},
    }),
    img: (tagName, attribs): sanitizeHtml.Tag => {
      const src = localImage(attribs.src);
      return { tagName, attribs: src ? { src, alt: attribs.alt ?? '' } : {} };
    },
  },
  // A link that goes nowhere safe keeps its words; an image from elsewhere goes.
  exclusiveFilter: (frame) => (frame.tag === 'a' && !frame.attribs.href ? 'excludeTag' : frame.tag === 'img' && !frame.attribs.src),
};

export function sanitizeNews(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
