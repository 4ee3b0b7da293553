import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown.server";
import { ALLOWED_OUTPUT, ALLOWED_TAGS, XSS_CORPUS } from "./markdown.server.xss-corpus";

describe("renderMarkdown", () => {
  it("renders headings, lists and emphasis", () => {
    const html = renderMarkdown("# Title\n\n- **bold** and *it*\n- two");
    expect(html).toContain("<h1>Title</h1>");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<li>two</li>");
  });

  it("keeps palette colours and drops any other style", () => {
    expect(renderMarkdown('<span style="color: #b91c1c">red</span>')).toContain('style="color:#b91c1c"');
    const other = renderMarkdown('<span style="color: #123456; position: fixed">x</span>');
    expect(other).not.toContain("position");
    expect(other).not.toContain("#123456");
  });

  it("removes scripts, event handlers and javascript: links", () => {
    const html = renderMarkdown(
      '<script>alert(1)</script><img src="x" onerror="alert(1)"><iframe src="https://e.vil"></iframe>\n\n[a](javascript:alert(1)) [b](https://example.com)',
    );
    expect(html).not.toMatch(/<script|onerror|<iframe|href="javascript:/i);
    expect(html).toContain('href="https://example.com"');
  });

  it("returns an empty string for an empty syllabus", () => {
    expect(renderMarkdown("")).toBe("");
    expect(renderMarkdown("   ")).toBe("");
  });
});

function decodeEntities(value: string): string {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", colon: ":", tab: "\t", newline: "\n" };
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16) || 0xfffd))
    .replace(/&#(\d+);?/g, (_, d: string) => String.fromCodePoint(Number(d) || 0xfffd))
    .replace(/&([a-z]+);/gi, (m, n: string) => named[n.toLowerCase()] ?? m);
}

/** Every tag and attribute in the output, from the sanitiser's normalised HTML (double-quoted attributes). */
function tagsOf(html: string) {
  return [...html.matchAll(/<([a-zA-Z][\w:-]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*\/?>/g)].map((m) => ({
    tag: m[1].toLowerCase(),
    attrs: [...m[2].matchAll(/([^\s=]+)(?:="([^"]*)")?/g)].map((a) => ({ name: a[1].toLowerCase(), value: decodeEntities(a[2] ?? "") })),
  }));
}

/** A URL is safe when it has no scheme (relative) or one of the allowed schemes; protocol-relative "//host" is not allowed either. */
function safeUrl(value: string): boolean {
  // Browsers drop ASCII whitespace and control characters from URLs before reading the scheme.
  const compact = [...value].filter((c) => c.charCodeAt(0) > 0x20).join("");
  // Browsers read a backslash as a slash in web URLs, so "/\\host" and "\\\\host" mean "//host".
  if (/^[\\/]{2}/.test(compact)) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact);
  return !scheme || ["http", "https", "mailto", "tel"].includes(scheme[1].toLowerCase());
}

describe("renderMarkdown against the XSS corpus", () => {
  for (const [i, payload] of XSS_CORPUS.entries()) {
    it(`payload ${i + 1}: ${payload.slice(0, 60).replace(/\s+/g, " ")}`, () => {
      const html = renderMarkdown(payload);
      for (const { tag, attrs } of tagsOf(html)) {
        expect(ALLOWED_TAGS.has(tag), `tag <${tag}> in ${html}`).toBe(true);
        for (const { name, value } of attrs) {
          expect(ALLOWED_OUTPUT[tag] ?? [], `attribute ${name} on <${tag}> in ${html}`).toContain(name);
          if (name === "href" || name === "src") expect(safeUrl(value), `${name} in ${html}`).toBe(true);
          if (name === "style") expect(value, html).toMatch(/^(color:#[0-9a-f]{6}|background-color:#[0-9a-f]{6})(;(color|background-color):#[0-9a-f]{6})*;?$/i);
          if (name === "target") expect(value).toBe("_blank");
          if (name === "rel") expect(value).toBe("noopener noreferrer nofollow");
        }
      }
      // Whatever survives as text is escaped: no raw markup that a later step could revive.
      expect(html).not.toMatch(/<\/?(script|iframe|object|embed|svg|math|style|form|base|meta|link)\b/i);
    });
  }

  it("keeps the harmless part of a mixed payload", () => {
    const html = renderMarkdown(XSS_CORPUS[XSS_CORPUS.length - 1]);
    expect(html).toContain('<span style="color:#b91c1c">safe red</span>');
    expect(html).toContain('<span style="background-color:#fef08a">safe highlight</span>');
    expect(renderMarkdown('<a href="https://example.com" onclick="x()">ok</a>')).toBe(
      '<p><a href="https://example.com" rel="noopener noreferrer nofollow" target="_blank">ok</a></p>',
    );
  });
});
