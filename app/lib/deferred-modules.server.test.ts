import { describe, expect, it } from "vitest";
import { deferModules, DEFERRED_TYPE, moduleScriptEnd } from "./deferred-modules.server";

const head = '<head><link rel="stylesheet" href="/assets/app.css"/><link rel="modulepreload" href="/assets/entry.js" nonce="N1"/><link rel="modulepreload" href="/assets/root.js" nonce="N1"/></head>';
const module = '<script nonce="N1" type="module" async="">import * as route0 from "/assets/root.js";\nimport("/assets/entry.js");</script>';
const page = `<!DOCTYPE html><html>${head}<body><main>Hi</main><script nonce="N1">window.x=1</script>${module}<script nonce="N1">window.y=2</script></body></html>`;

describe("public pages start their modules after the first paint", () => {
  it("takes the modulepreloads out of the head and keeps the module script as an inert data block", () => {
    const out = deferModules(page);
    expect(out).not.toContain('<link rel="modulepreload"');
    expect(out).not.toContain('type="module" async');
    expect(out).toContain(`<script nonce="N1" type="${DEFERRED_TYPE}">import * as route0 from "/assets/root.js";\nimport("/assets/entry.js");</script>`);
    expect(out).toContain('<link rel="stylesheet" href="/assets/app.css"/>');
    expect(out).toContain('<script nonce="N1">window.y=2</script></body></html>');
  });

  it("adds a start script with the same nonce that puts back every preload and the module", () => {
    const out = deferModules(page);
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
    const start = /<script nonce="N1">(\(function[\s\S]*?)<\/script>/.exec(deferModules(page))![1];
    const window = {}; // no PerformanceObserver: the frame after the first starts it
    new Function("window", "document", "requestAnimationFrame", "setTimeout", start)(window, document, (f: () => void) => f(), (f: () => void) => f());
    expect(appended).toEqual([
      { rel: "modulepreload", href: "/assets/entry.js", nonce: "N2" },
      { rel: "modulepreload", href: "/assets/root.js", nonce: "N2" },
    ]);
    expect(replacedWith).toEqual({ type: "module", nonce: "N2", textContent: "import x" });
  });

  it("leaves markup without the module script alone, and finds where the script ends", () => {
    expect(deferModules(`<html>${head}<body></body></html>`)).toBe(`<html>${head}<body></body></html>`);
    expect(moduleScriptEnd(page.slice(0, page.indexOf("</script>", page.indexOf('type="module"'))))).toBe(-1);
    expect(page.slice(0, moduleScriptEnd(page)).endsWith(module)).toBe(true);
  });
});
