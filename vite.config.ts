import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

/**
 * React Router names every server entry after its server build file (index.js), so the file-check process's entry
 * would take the server's name: it keeps its own, file-check.js, beside it.
 */
function fileCheckEntryName(): Plugin {
  return {
    name: "file-check-entry-name",
    apply: "build",
    outputOptions(options) {
      const base = options.entryFileNames;
      if (!base) return null;
      return {
        ...options,
        entryFileNames: (chunk) => (chunk.name === "file-check" ? "file-check.js" : typeof base === "function" ? base(chunk) : base),
      };
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  // The server build bundles the Express app (server/app.ts) together with the route modules,
  // so production runs plain `node server/index.js` with no TypeScript loader.
  // The browser's code minified by terser rather than esbuild: 2-3 KiB (gzipped) less on every public page, which
  // brings the home page back under DESIGN.md's 130 KiB (131.1 -> 128.1 KiB), for a second or two more per build.
  // The file-check process (app/infra/file-checks/child.server.ts) is an entry of its own: build/server/file-check.js.
  build: isSsrBuild
    ? { rollupOptions: { input: { index: "./server/app.ts", "file-check": "./app/infra/file-checks/child.server.ts" } }, target: "node20" }
    : { target: "es2020", minify: "terser" },
  resolve: {
    alias: {
      "~": path.resolve(import.meta.dirname, "app"),
      "~db": path.resolve(import.meta.dirname, "db"),
    },
  },
  ssr: {
    // Native and CommonJS-heavy packages stay external and load from node_modules at run time.
    external: ["better-sqlite3", "mysql2", "@node-rs/argon2", "sharp", "busboy", "yauzl"],
  },
  plugins: [tailwindcss(), reactRouter(), fileCheckEntryName()],
}));
