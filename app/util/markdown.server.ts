import { marked } from "marked";
import sanitizeHtml from "sanitize-html";
import { BACKGROUND_COLORS, TEXT_COLORS } from "~/config/palette";

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const oneOf = (values: readonly { value: string }[]) =>
  new RegExp(
    `^(${values
      .filter((v) => v.value)
      .map((v) => escapeRe(v.value))
      .join("|")})$`,
    "i",
  );

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "br",
    "hr",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "del",
    "ins",
    "ul",
    "ol",
    "li",
    "blockquote",
    "code",
    "pre",
    "a",
    "img",
    "span",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "sup",
    "sub",
  ],
  allowedAttributes: {
    a: ["href", "title"],
    img: ["src", "alt", "title", "width", "height"],
    span: ["style"],
    th: ["align"],
    td: ["align"],
    ol: ["start"],
  },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
  allowedStyles: { span: { color: [oneOf(TEXT_COLORS)], "background-color": [oneOf(BACKGROUND_COLORS)] } },
  disallowedTagsMode: "discard",
  // Dropped together with their content. sanitize-html passes the content of a disallowed <xmp> through
  // unescaped (it is raw text to the parser), so "<xmp><script>…</script></xmp>" would come out as a live
  // script tag unless xmp is listed here; the others hold raw text, markup for another parser, or nothing a reader needs.
  nonTextTags: [
    "script",
    "style",
    "textarea",
    "option",
    "select",
    "xmp",
    "noembed",
    "noframes",
    "noscript",
    "plaintext",
    "iframe",
    "template",
    "title",
    "object",
    "svg",
    "math",
  ],
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, rel: "noopener noreferrer nofollow", ...(attribs.href?.startsWith("http") ? { target: "_blank" } : {}) },
    }),
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: "lazy", decoding: "async" } }),
  },
};
// target, rel, loading and decoding are set by transformTags only, never taken from the input.
SANITIZE.allowedAttributes = {
  ...SANITIZE.allowedAttributes,
  a: ["href", "title", "rel", "target"],
  img: ["src", "alt", "title", "width", "height", "loading", "decoding"],
};

/** Renders syllabus Markdown (from MDXEditor) to HTML that is safe to insert: an allow-list, no scripts, palette colours only. */
export function renderMarkdown(markdown: string | null | undefined): string {
  if (!markdown?.trim()) return "";
  const html = marked.parse(markdown, { async: false, gfm: true, breaks: false }) as string;
  // A second pass costs little and catches any markup the first pass let through as text of a raw-text element.
  return sanitizeHtml(sanitizeHtml(html, SANITIZE), SANITIZE).trim();
}
