/**
 * RFC 3987 IRI references, as far as the site takes them: an absolute http(s) IRI with an authority, or a path on
 * this site ("/images/a.png"). The OpenAPI document states them as `format: iri-reference` (with the start the
 * site takes as its `pattern`), and this is that format's grammar, so a value the document admits is never
 * refused and one it refuses never stored. Non-ASCII text is an IRI's own (`https://例え.jp/ô`); it is stored and
 * answered as sent (a browser encodes it when it follows the link).
 */

// Built on first use: the patterns are long, and a module that only builds them would otherwise be kept in every
// browser bundle that imports the schemas' field helpers (the public forms never check a URL).
let grammar: { http: RegExp; path: RegExp } | undefined;

function build(): { http: RegExp; path: RegExp } {
  const hex = "[0-9A-Fa-f]";
  const pct = `%${hex}{2}`;
  const subDelims = "!$&'()*+,;=";
  // ucschar: U+00A0–U+D7FF, U+F900–U+FDCF, U+FDF0–U+FFEF, then each plane up to 13 without its last two code points,
  // and U+E1000–U+EFFFD. iprivate (query only): U+E000–U+F8FF, U+F0000–U+FFFFD, U+100000–U+10FFFD.
  const planes = Array.from({ length: 13 }, (_, i) => `\\u{${(i + 1).toString(16)}0000}-\\u{${(i + 1).toString(16)}FFFD}`).join("");
  const ucschar = `\\u{A0}-\\u{D7FF}\\u{F900}-\\u{FDCF}\\u{FDF0}-\\u{FFEF}${planes}\\u{E1000}-\\u{EFFFD}`;
  const iprivate = "\\u{E000}-\\u{F8FF}\\u{F0000}-\\u{FFFFD}\\u{100000}-\\u{10FFFD}";
  const iunreserved = `A-Za-z0-9\\-._~${ucschar}`;
  const ipchar = `(?:[${iunreserved}${subDelims}:@]|${pct})`;
  const isegment = `${ipchar}*`;
  const iquery = `(?:${ipchar}|[${iprivate}/?])*`;
  const ifragment = `(?:${ipchar}|[/?])*`;

  const decOctet = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]\\d|\\d)";
  const ipv4 = `${decOctet}(?:\\.${decOctet}){3}`;
  const h16 = `${hex}{1,4}`;
  const ls32 = `(?:${h16}:${h16}|${ipv4})`;
  const upTo = (n: number) => (n < 0 ? "" : `(?:(?:${h16}:){0,${n}}${h16})?`);
  const ipv6 = [
    `(?:${h16}:){6}${ls32}`,
    `::(?:${h16}:){5}${ls32}`,
    `${upTo(0)}::(?:${h16}:){4}${ls32}`,
    `${upTo(1)}::(?:${h16}:){3}${ls32}`,
    `${upTo(2)}::(?:${h16}:){2}${ls32}`,
    `${upTo(3)}::${h16}:${ls32}`,
    `${upTo(4)}::${ls32}`,
    `${upTo(5)}::${h16}`,
    `${upTo(6)}::`,
  ].join("|");
  const ipvFuture = `v${hex}+\\.[A-Za-z0-9\\-._~${subDelims}:]+`;
  const ihost = `(?:\\[(?:${ipv6}|${ipvFuture})\\]|(?:[${iunreserved}${subDelims}]|${pct})*)`;
  const iuserinfo = `(?:[${iunreserved}${subDelims}:]|${pct})*`;
  const iauthority = `(?:${iuserinfo}@)?${ihost}(?::\\d*)?`;
  const tail = `(?:\\?${iquery})?(?:#${ifragment})?`;

  const http = new RegExp(`^[Hh][Tt][Tt][Pp][Ss]?://${iauthority}(?:/${isegment})*${tail}$`, "u");
  const path = new RegExp(`^/(?:${ipchar}+(?:/${isegment})*)?${tail}$`, "u");
  return { http, path };
}

/** An http(s) IRI or a path on this site (one slash, then a path that is not empty before the next one), by RFC 3987's grammar. */
export function isSiteIri(value: string): boolean {
  grammar ??= build();
  return grammar.http.test(value) || grammar.path.test(value);
}
