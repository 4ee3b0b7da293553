import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig(({ isSsrBuild }) => ({
  // The server build bundles the Express app (server/app.ts) together with the route modules,
  // so production runs plain `node server/index.js` with no TypeScript loader.
  build: isSsrBuild ? { rollupOptions: { input: "./server/app.ts" }, target: "node20" } : { target: "es2020" },
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
