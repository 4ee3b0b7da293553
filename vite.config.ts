import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig(({ isSsrBuild }) => ({
  // The server build bundles the Express app (server/app.ts) together with the route modules,
  // so production runs plain `node server/index.js` with no TypeScript loader.
  // The browser's code minified by terser rather than esbuild: 2-3 KiB (gzipped) less on every public page, which
  // brings the home page back under DESIGN.md's 130 KiB (131.1 -> 128.1 KiB), for a second or two more per build.
  build: isSsrBuild ? { rollupOptions: { input: "./server/app.ts" }, target: "node20" } : { target: "es2020", minify: "terser" },
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
  plugins: [tailwindcss(), reactRouter()],
}));
