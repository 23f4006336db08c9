/**
 * Review text for display. The engine sends a review's content as HTML (WooGraphQL's rendered
 * `content`: Meshfront's engine escapes the stored plain text into <p> paragraphs; a WooCommerce
 * backend sends whatever WordPress stored). The product page never puts that HTML on the page: it takes
 * the text back out here and lets Astro (or React) escape it, so a review that says "<script>" shows
 * exactly that, and markup from another backend cannot reach the page.
 */
const ENTITIES: Record<string, string> = {
  amp: '&',
  quot: '"',
  apos: "'",
  lt: '<',
  gt: '>',
  nbsp: '\u00a0',
  hellip: '…',
  ndash: '–',
  mdash: '—',
  rsquo: '’',
  lsquo: '‘',
  rdquo: '”',
  ldquo: '“',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    if (code[0] === '#') {
      const value =
        code[1].toLowerCase() === 'x' ? Number.parseInt(code.slice(2), 16) : Number.parseInt(code.slice(1), 10);
      return Number.isFinite(value) && value > 0 && value <= 0x10ffff ? String.fromCodePoint(value) : whole;
    }
    return ENTITIES[code.toLowerCase()] ?? whole;
  });
}

/** The paragraphs of a review as plain text (line breaks inside a paragraph kept as '\n'). */
export function reviewParagraphs(html: string | null | undefined): string[] {
  if (!html) return [];
  const marked = html
    .replace(/\r\n?/g, '\n')
    // Source line breaks inside HTML are not breaks; <br> and paragraph ends are.
    .replace(/\n/g, ' ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p\s*>|<p(\s[^>]*)?>/gi, '\n\n')
    // Whole elements whose text is not content.
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(marked)
    .split(/\n{2,}/)
    .map((paragraph) =>
      paragraph
        .split('\n')
        .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
        .join('\n')
        .trim(),
    )
    .filter((paragraph) => paragraph.length > 0);
}
