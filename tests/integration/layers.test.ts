import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The layers of docs/architecture.md, checked on the source: every import points to the same layer or one below
 * it, and no files import each other in a circle. Lower to higher:
 *   config (app/config) < schemas < util (with app/env.server.ts) < models (with db/) < infra < services < web
 *   < components < routes (with root, entry and routes.ts) < server/ and scripts/
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const LAYERS: [RegExp, number, string][] = [
  [/^app\/config\//, 0, "config"],
  [/^app\/schemas\//, 1, "schemas"],
  [/^app\/(util\/|env\.server\.ts$)/, 2, "util"],
  [/^(app\/models\/|db\/)/, 3, "models"],
  [/^app\/infra\//, 4, "infra"],
  [/^app\/services\//, 5, "services"],
  [/^app\/web\//, 6, "web"],
  [/^app\/components\//, 7, "components"],
  [/^app\/(routes\/|root\.tsx$|entry\.(server|client)\.tsx$|routes\.ts$)/, 8, "routes"],
  [/^(server|scripts)\//, 9, "server"],
];

function layerOf(file: string): [number, string] | null {
  for (const [re, n, name] of LAYERS) if (re.test(file)) return [n, name];
  return null;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.(ts|tsx|js)$/.test(entry.name) && !/\.test\.tsx?$|\.d\.ts$/.test(entry.name)) out.push(rel);
  }
  return out;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s*["']([^"']+)["']/g;

function resolve(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith("~/")) base = path.join("app", spec.slice(2));
  else if (spec.startsWith("~db/")) base = path.join("db", spec.slice(4));
  else if (spec.startsWith(".")) base = path.join(path.dirname(from), spec);
  else return null;
  for (const ext of ["", ".ts", ".tsx", ".js", "/index.ts"])
    if (fs.existsSync(path.join(ROOT, base + ext)) && fs.statSync(path.join(ROOT, base + ext)).isFile()) return base + ext;
  return null;
}

const files = ["app", "db", "server", "scripts"].flatMap(sourceFiles);
const graph = new Map<string, string[]>(
  files.map((file) => {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const targets = [...text.matchAll(IMPORT)].map((m) => resolve(file, m[1] ?? m[2] ?? m[3])).filter((t): t is string => t !== null);
    return [file, [...new Set(targets)]];
  }),
);

describe("the layers", () => {
  it("place every source file in a layer", () => {
    expect(files.filter((f) => !layerOf(f))).toEqual([]);
  });

  it("import only downward (or within their own layer)", () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      const [from, fromName] = layerOf(file) ?? [99, "?"];
      for (const target of targets) {
        const [to, toName] = layerOf(target) ?? [-1, "?"];
        if (to > from) upward.push(`${file} (${fromName}) imports ${target} (${toName})`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("have no circle of files importing each other", () => {
    // Tarjan's strongly connected components: a component of more than one file is a circle.
    let index = 0;
    const stack: string[] = [];
    const on = new Set<string>();
    const idx = new Map<string, number>();
    const low = new Map<string, number>();
    const circles: string[][] = [];
    const visit = (v: string) => {
      idx.set(v, index);
      low.set(v, index++);
      stack.push(v);
      on.add(v);
      for (const w of graph.get(v) ?? []) {
        if (!graph.has(w)) continue;
        if (!idx.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
      }
      if (low.get(v) === idx.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          on.delete(w);
          component.push(w);
        } while (w !== v);
        if (component.length > 1) circles.push(component.sort());
      }
    };
    for (const v of graph.keys()) if (!idx.has(v)) visit(v);
    expect(circles).toEqual([]);
  });
});
