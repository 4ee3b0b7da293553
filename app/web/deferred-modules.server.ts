/**
 * Public pages start their JavaScript after the first paint, not alongside it.
 *
 * React Router's <Scripts> puts a modulepreload link for every module of the page in the head and an inline
 * module script (the route modules and the client entry) at the end of the body. On a slow phone those ~130 KB
 * share the line with the stylesheet that the first paint waits for, even at low priority. A public page
 * works without its JavaScript (every link navigates, every form posts), so it can arrive a frame later:
 * the links are taken out of the head, the module script is kept as an inert data block, and a small start
 * script puts both back once the browser reports its first paint (a PerformanceObserver; where there is none,
 * the frame after the first), or after START_LATEST_MS if nothing is painted (a tab opened in the background).
 *
 * The start script carries no nonce of its own in its text: it reads its element's nonce, so the page cache
 * can give each answer a fresh one (server/page-cache.ts).
 */

const MODULEPRELOAD = /<link rel="modulepreload"[^>]*? href="([^"]+)"[^>]*\/>/g;
/**
 * The one inline module script of <Scripts> is `<script nonce="…" type="module" async="">…</script>`. It is found
 * by its attributes with the quotes as written: in text React writes a quote as `&quot;`, and inside the JSON of
 * other scripts as `\"`, so only the element itself has them.
 */
const MODULE_ATTRIBUTES = ' type="module" async="">';
const SCRIPT_OPEN = /^<script( nonce="[^"]*")?$/;
export const DEFERRED_TYPE = "text/x-deferred-module";
const START_LATEST_MS = 1500;

/**
 * `page` (the document from its start) with the modulepreloads of its head taken out and <Scripts>' module script
 * replaced by the inert block and the start script; null while the module script has not come yet. It works on
 * bytes and decodes only the head and the script: the body in between (most of the page) is passed on as it is.
 */
export function deferModules(page: Buffer): Buffer | null {
  const attributes = page.indexOf(MODULE_ATTRIBUTES);
  if (attributes < 0) return null;
  const close = page.indexOf("</script>", attributes);
  if (close < 0) return null;
  const open = page.lastIndexOf("<script", attributes);
  const opening = open < 0 ? null : SCRIPT_OPEN.exec(page.toString("utf8", open, attributes));
  if (!opening) return null;
  const body = page.toString("utf8", attributes + MODULE_ATTRIBUTES.length, close);
  const headEnd = Math.min(open, Math.max(0, page.indexOf("</head>")));
  const hrefs: string[] = [];
  const head = page.toString("utf8", 0, headEnd).replace(MODULEPRELOAD, (_link, href: string) => {
    hrefs.push(href);
    return "";
  });
  const nonce = opening[1] ?? "";
  const scripts = `<script${nonce} type="${DEFERRED_TYPE}">${body}</script><script${nonce}>${startScript(hrefs)}</script>`;
  return Buffer.concat([Buffer.from(head), page.subarray(headEnd, open), Buffer.from(scripts), page.subarray(close + "</script>".length)]);
}

function startScript(hrefs: string[]): string {
  // JSON of asset paths contains no "</": safe inside a script element.
  return (
    `(function(){var s=document.currentScript,d=document,n=s.nonce,started=0;` +
    `function start(){if(started++)return;${JSON.stringify(hrefs)}.forEach(function(h){var l=d.createElement("link");l.rel="modulepreload";l.href=h;l.nonce=n;d.head.appendChild(l)});` +
    `var o=d.querySelector('script[type="${DEFERRED_TYPE}"]'),m=d.createElement("script");m.type="module";m.nonce=n;m.textContent=o.textContent;o.replaceWith(m)}` +
    `var P=window.PerformanceObserver;if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0)new P(function(){setTimeout(start,0)}).observe({type:"paint",buffered:true});` +
    `else requestAnimationFrame(function(){requestAnimationFrame(start)});setTimeout(start,${START_LATEST_MS})})()`
  );
}
