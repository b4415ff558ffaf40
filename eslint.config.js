// ESLint for the browser modules (src/lamagames/web/static, each game's static/ folder) and
// their node unit tests (tests/js). `npm run lint`; CI runs it (tests/web/test_js_tooling.py).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "**/.venv/", "build/", "dist/"] },
  js.configs.recommended,
  {
    files: ["src/**/*.js", "tests/**/static/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
    rules: {
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_", caughtErrors: "none" }],
      eqeqeq: ["error", "always"],
      "prefer-const": "error",
      "no-var": "error",
    },
  },
  {
    files: ["tests/js/**/*.mjs", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
];
