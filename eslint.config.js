import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", "build-*/", ".react-router/", "node_modules/", "data/", "test-results/", "playwright-report/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  // The layers of docs/architecture.md: a folder imports only from the layers below it (tests/integration/layers.test.ts
  // checks the whole graph, circles included; this points at the line in the editor).
  ...layerRules(),
  {
    // useTestDatabase() and friends are test helpers, not React hooks.
    files: ["tests/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
);

function layerRules() {
  // Lowest first; each layer may import its own and the ones before it.
  const layers = [
    { name: "schemas", files: ["app/schemas/**"] },
    { name: "util", files: ["app/util/**", "app/env.server.ts"] },
    { name: "models", files: ["app/models/**", "db/**"] },
    { name: "infra", files: ["app/infra/**"] },
    { name: "services", files: ["app/services/**"] },
    { name: "web", files: ["app/web/**"] },
    { name: "components", files: ["app/components/**"] },
    { name: "routes", files: ["app/routes/**"] },
  ];
  const folder = {
    util: ["util", "env.server"],
    models: ["models"],
    infra: ["infra"],
    services: ["services"],
    web: ["web"],
    components: ["components"],
    routes: ["routes"],
    schemas: ["schemas"],
  };
  return layers.slice(0, -1).map((layer, i) => {
    const above = layers.slice(i + 1).flatMap((l) => folder[l.name]);
    const group = above.flatMap((f) => [`~/${f}`, `~/${f}/*`, `../${f}/*`, `../../${f}/*`, `../app/${f}/*`]);
    if (layer.name === "models") group.push("../server/*", "../../server/*");
    return {
      files: layer.files,
      ignores: ["**/*.test.ts", "**/*.test.tsx"],
      rules: {
        "no-restricted-imports": [
          "error",
          { patterns: [{ group, message: `The ${layer.name} layer imports only from the layers below it (docs/architecture.md).` }] },
        ],
      },
    };
  });
}
