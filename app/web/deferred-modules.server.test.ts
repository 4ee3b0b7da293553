import { describe, expect, it } from "vitest";
import { deferModules as deferModulesInBytes, DEFERRED_TYPE } from "./deferred-modules.server";

const head =
  '<head><link rel="stylesheet" href="/assets/app.css"/><link rel="modulepreload" href="/assets/entry.js" nonce="N1"/><link rel="modulepreload" href="/assets/root.js" nonce="N1"/></head>';
const module = '<script nonce="N1" type="module" async="">import * as route0 from "/assets/root.js";\nimport("/assets/entry.js");</script>';
const page = `<!DOCTYPE html><html>${head}<body><main>Hi</main><script nonce="N1">window.x=1</script>${module}<script nonce="N1">window.y=2</script></body></html>`;

/** The page as text in and out; null while the module script has not come. */
const deferModules = (html: string) => deferModulesInBytes(Buffer.from(html))?.toString("utf8") ?? null;

describe("public pages start their modules at the first sign of use, after the first paint", () => {
  it("takes the modulepreloads out of the head and keeps the module script as an inert data block", () => {
    const out = deferModules(page)!;
    expect(out).not.toContain('<link rel="modulepreload"');
    expect(out).not.toContain('type="module" async');
    expect(out).toContain(`<script nonce="N1" type="${DEFERRED_TYPE}">import * as route0 from "/assets/root.js";\nimport("/assets/entry.js");</script>`);
    expect(out).toContain('<link rel="stylesheet" href="/assets/app.css"/>');
    expect(out).toContain('<script nonce="N1">window.y=2</script></body></html>');
  });

  it("adds a start script with the same nonce that puts back every preload and the module", () => {
    const out = deferModules(page)!;
    const start = /<script nonce="N1">(\(function[\s\S]*?)<\/script>/.exec(out)![1];
    expect(start).toContain('["/assets/entry.js","/assets/root.js"]');
    expect(start).toContain('observe({type:"paint",buffered:true})');
    expect(start).not.toContain("N1"); // it reads its own element's nonce, so the page cache can swap it
  });

  /** The start script run in a stand-in document: enough DOM for it, with its listeners, frames and timers held to run by hand. */
  function runStart(readyState: "loading" | "complete") {
    const appended: Record<string, string>[] = [];
    const replaced: Record<string, string>[] = [];
    const listeners = new Map<string, () => void>();
    const timers: [() => void, number][] = [];
    const idle: (() => void)[] = [];
    const document = {
      currentScript: { nonce: "N2" },
      readyState,
      head: { appendChild: (l: Record<string, string>) => appended.push(l) },
      createElement: () => ({}) as Record<string, string>,
      querySelector: () => ({ textContent: "import x", replaceWith: (m: Record<string, string>) => replaced.push(m) }),
    };
    // No PerformanceObserver: the frame after the first counts as the first paint.
    const window = {
      addEventListener: (type: string, f: () => void) => listeners.set(type, f),
      removeEventListener: (type: string) => listeners.delete(type),
      requestIdleCallback: (f: () => void) => idle.push(f),
    };
    const frames: (() => void)[] = [];
    const start = /<script nonce="N1">(\(function[\s\S]*?)<\/script>/.exec(deferModules(page)!)![1];
    new Function("window", "document", "requestAnimationFrame", "setTimeout", start)(
      window,
      document,
      (f: () => void) => frames.push(f),
      (f: () => void, ms: number) => timers.push([f, ms]),
    );
    const paint = () => {
      while (frames.length) frames.shift()!();
    };
    return { appended, replaced, listeners, timers, idle, paint };
  }

  it("starts at the first sign of use after the first paint: the preloads and the module come back, once", () => {
    const run = runStart("loading");
    expect([...run.listeners.keys()]).toEqual(expect.arrayContaining(["pointerdown", "touchstart", "keydown", "focusin", "scroll", "load"]));
    run.listeners.get("scroll")!(); // before the first paint: held until it
    expect(run.replaced).toEqual([]);
    run.paint();
    expect(run.appended).toEqual([
      { rel: "modulepreload", href: "/assets/entry.js", nonce: "N2" },
      { rel: "modulepreload", href: "/assets/root.js", nonce: "N2" },
    ]);
    expect(run.replaced).toEqual([{ type: "module", nonce: "N2", textContent: "import x" }]);
    // The use listeners are gone; the load listener may fire later and changes nothing.
    expect(run.listeners.has("pointerdown")).toBe(false);
    run.listeners.get("load")?.();
    for (const [f] of run.timers) f();
    for (const f of run.idle) f();
    expect(run.replaced).toHaveLength(1);
  });

  it("without any use, starts when the browser is idle a while after the load", () => {
    const run = runStart("complete");
    run.paint();
    expect(run.replaced).toEqual([]);
    const [later] = run.timers.filter(([, ms]) => ms === 4000);
    expect(later).toBeDefined();
    later[0]();
    expect(run.replaced).toEqual([]);
    run.idle.forEach((f) => f());
    expect(run.replaced).toHaveLength(1);
  });

  it("holds markup until the whole module script has come", () => {
    expect(deferModules(`<html>${head}<body></body></html>`)).toBeNull();
    expect(deferModules(page.slice(0, page.indexOf("</script>", page.indexOf('type="module"'))))).toBeNull();
    expect(deferModules(page.slice(0, page.indexOf(module) + module.length))).toMatch(/<\/script>$/);
  });

  it("passes the body's bytes on unchanged, even characters that are not ASCII", () => {
    const body = "<main>Café – ₹25,000 · 日本</main>";
    const out = deferModules(page.replace("<main>Hi</main>", body))!;
    expect(out).toContain(body);
    expect(out).toContain('<script nonce="N1">window.x=1</script>');
  });

  it("finds the module script without a nonce too, and not the words in the page's text", () => {
    const text = "<p>type=&quot;module&quot; async=&quot;&quot;&gt;</p>";
    const out = deferModules(`<html>${head}<body>${text}${module.replace(' nonce="N1"', "")}</body></html>`)!;
    expect(out).toContain(text);
    expect(out).toContain(`<script type="${DEFERRED_TYPE}">import`);
  });
});
