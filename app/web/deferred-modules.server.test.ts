import { describe, expect, it } from "vitest";
import { deferModules as deferModulesInBytes, DEFERRED_TYPE } from "./deferred-modules.server";

const head =
  '<head><link rel="stylesheet" href="/assets/app.css"/><link rel="modulepreload" href="/assets/entry.js" nonce="N1"/><link rel="modulepreload" href="/assets/root.js" nonce="N1"/></head>';
const module = '<script nonce="N1" type="module" async="">import * as route0 from "/assets/root.js";\nimport("/assets/entry.js");</script>';
const page = `<!DOCTYPE html><html>${head}<body><main>Hi</main><script nonce="N1">window.x=1</script>${module}<script nonce="N1">window.y=2</script></body></html>`;

/** The page as text in and out; null while the module script has not come. */
const deferModules = (html: string) => deferModulesInBytes(Buffer.from(html))?.toString("utf8") ?? null;

describe("public pages start their modules after the first paint", () => {
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

  it("runs the start script in a document and gets back the module script and the preloads", async () => {
    // A stand-in document: enough DOM for the start script, with the frame and timer run at once.
    const appended: Record<string, string>[] = [];
    let replacedWith: Record<string, string> | undefined;
    const document = {
      currentScript: { nonce: "N2" },
      head: { appendChild: (l: Record<string, string>) => appended.push(l) },
      createElement: () => ({}) as Record<string, string>,
      querySelector: () => ({ textContent: "import x", replaceWith: (m: Record<string, string>) => (replacedWith = m) }),
    };
    const start = /<script nonce="N1">(\(function[\s\S]*?)<\/script>/.exec(deferModules(page)!)![1];
    const window = {}; // no PerformanceObserver: the frame after the first starts it
    new Function("window", "document", "requestAnimationFrame", "setTimeout", start)(
      window,
      document,
      (f: () => void) => f(),
      (f: () => void) => f(),
    );
    expect(appended).toEqual([
      { rel: "modulepreload", href: "/assets/entry.js", nonce: "N2" },
      { rel: "modulepreload", href: "/assets/root.js", nonce: "N2" },
    ]);
    expect(replacedWith).toEqual({ type: "module", nonce: "N2", textContent: "import x" });
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
