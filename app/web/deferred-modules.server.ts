/**
 * Public pages start their JavaScript when a visitor starts to use the page, not while it loads.
 *
 * React Router's <Scripts> puts a modulepreload link for every module of the page in the head and an inline
 * module script (the route modules and the client entry) at the end of the body. On a slow phone those ~130 KB
 * share the line with the stylesheet that the first paint waits for, even at low priority. A public page
 * works without its JavaScript (every link navigates, every form posts), so it can arrive later: the links are
 * taken out of the head, the module script is kept as an inert data block, and a small start script puts both back
 * at the visitor's first sign of use (a touch, a pointer, a key, a focus, a scroll), or once the page has loaded and
 * the browser has been idle for START_IDLE_MS, whichever comes first, and never before the first paint (a
 * PerformanceObserver; where there is none, the frame after the first; or after START_LATEST_MS if nothing is
 * painted, a tab opened in the background).
 *
 * Nothing on a page's first screen needs the scripts (the header's menu is a <details>, its colour follows the
 * scroll in CSS, the forms post), and on a phone hydration is most of the main thread's work after the first
 * paint (~0.8 s at Lighthouse's 4x slowdown on the home page): done while the page loads it held back the load's
 * end and any early tap. Started by the first touch it runs while the visitor reads, and the touch itself is
 * answered by the browser at once (a link navigates, a field takes focus; the forms' code then loads as before).
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
/** After the load event, when nobody has touched the page: the scripts start once the browser is idle after this. */
const START_IDLE_MS = 4000;
/** The first sign of use: each starts the scripts (the listeners are passive and go once they have). */
const USE_EVENTS = ["pointerdown", "pointermove", "touchstart", "keydown", "focusin", "scroll", "wheel"];

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
    `(function(){var s=document.currentScript,d=document,w=window,n=s.nonce,started=0,painted=0,wanted=0,E=${JSON.stringify(USE_EVENTS)},o={capture:true,passive:true};` +
    `function start(){if(!painted){wanted=1;return}if(started++)return;E.forEach(function(e){w.removeEventListener(e,start,o)});` +
    `${JSON.stringify(hrefs)}.forEach(function(h){var l=d.createElement("link");l.rel="modulepreload";l.href=h;l.nonce=n;d.head.appendChild(l)});` +
    `var x=d.querySelector('script[type="${DEFERRED_TYPE}"]'),m=d.createElement("script");m.type="module";m.nonce=n;m.textContent=x.textContent;x.replaceWith(m)}` +
    `function paint(){if(painted)return;painted=1;if(wanted)start()}` +
    `E.forEach(function(e){w.addEventListener(e,start,o)});` +
    `var P=w.PerformanceObserver;if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0)new P(function(){setTimeout(paint,0)}).observe({type:"paint",buffered:true});` +
    `else requestAnimationFrame(function(){requestAnimationFrame(paint)});setTimeout(paint,${START_LATEST_MS});` +
    `function idle(){setTimeout(function(){paint();if(w.requestIdleCallback)w.requestIdleCallback(start,{timeout:2000});else start()},${START_IDLE_MS})}` +
    `if(d.readyState==="complete")idle();else w.addEventListener("load",idle)})()`
  );
}
