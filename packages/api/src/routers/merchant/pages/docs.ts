/** OpenAPI text the area's procedures share. */

export const TAGS = ['Merchant: pages'];

export const SLUG_RULE =
  '`slug` is unique per organization (1 to 100 characters, lowercase letters and digits in groups joined by single hyphens): one another page holds, archived or not, is `409 SLUG_TAKEN`.';

export const CONTENT_RULE =
  '`content` is HTML of at most 200,000 characters, sanitised before it is stored: kept are `p`, `br`, `hr`, `h1`–`h6`, `strong`, `b`, `em`, `i`, `u`, `s`, `small`, `sub`, `sup`, `mark`, `abbr`, `code`, `pre`, `blockquote`, `ul`, `ol`, `li`, `dl`, `dt`, `dd`, `a` (`href`, `title`), `img` (`src` absolute http or https, `alt`, `title`, `width`, `height`), `figure`, `figcaption`, `table`, `caption`, `thead`, `tbody`, `tfoot`, `tr`, `th`, `td`, `div`, `span`. Links keep http, https, mailto, tel and relative URLs. Everything else goes: `script`, `style`, `iframe`, `object`, `embed`, `svg`, forms, `style`/`class`/`id` and event handler attributes, `javascript:` and `data:` URLs (however encoded). The response carries the stored (sanitised) content.';
