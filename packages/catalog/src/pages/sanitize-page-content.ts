import sanitizeHtml from 'sanitize-html';

/** The formatting a page may hold; everything else is removed (its text kept, except scripts and styles). */
export const PAGE_CONTENT_TAGS = [
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'small',
  'sub',
  'sup',
  'mark',
  'abbr',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'a',
  'img',
  'figure',
  'figcaption',
  'table',
  'caption',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'div',
  'span',
] as const;

const URL_SCHEMES = ['http', 'https', 'mailto', 'tel'];
const ABSOLUTE_HTTP = /^https?:\/\//i;

/**
 * One allowlist for every page: no `style`, `class`, `id` or event handler
 * attribute survives, links keep http, https, mailto, tel and relative URLs,
 * images need an absolute http(s) `src` (an image without one is dropped).
 * sanitize-html decodes entities and strips control characters before it
 * checks a scheme, so `&#106;avascript:` and `java\tscript:` are caught too.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...PAGE_CONTENT_TAGS],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    abbr: ['title'],
    blockquote: ['cite'],
    ol: ['start', 'reversed'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
  },
  allowedSchemes: URL_SCHEMES,
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  exclusiveFilter: (frame) => frame.tag === 'img' && !ABSOLUTE_HTTP.test(frame.attribs.src ?? ''),
};

/** The stored form of a page's HTML: safe to serve to a storefront as is. */
export function sanitizePageContent(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
