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
/** The one inline module script of <Scripts>: `<script nonce="…" type="module" async="">…</script>`. */
const MODULE_SCRIPT = /<script( nonce="[^"]*")? type="module" async="">([\s\S]*?)<\/script>/;
export const DEFERRED_TYPE = "text/x-deferred-module";
const START_LATEST_MS = 1500;

/** Where <Scripts>' module script ends in `html` (a string index), or -1 while it has not come yet. */
export function moduleScriptEnd(html: string): number {
  const script = MODULE_SCRIPT.exec(html);
  return script ? script.index + script[0].length : -1;
}

/** `html` from the document's start up to at least the module script; unchanged if it has none. */
export function deferModules(html: string): string {
  const script = MODULE_SCRIPT.exec(html);
  if (!script) return html;
  const [whole, nonceAttr = "", body] = script;
  const hrefs: string[] = [];
  const before = html.slice(0, script.index).replace(MODULEPRELOAD, (_link, href: string) => {
    hrefs.push(href);
    return "";
  });
  const after = html.slice(script.index + whole.length);
  const inert = `<script${nonceAttr} type="${DEFERRED_TYPE}">${body}</script>`;
  return `${before}${inert}<script${nonceAttr}>${startScript(hrefs)}</script>${after}`;
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
