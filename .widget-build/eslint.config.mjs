// ESLint for the widget's source and its JS tests: `npm run lint` here. The recommended rules
// only, which find bugs (undefined or unused names, unreachable code, duplicate keys), not
// style. The npm script runs ESLint from the repository root with this file as its config:
// ESLint lints nothing outside the directory its config's paths are relative to.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    // the browser source: ES modules bundled by build.mjs
    files: ["static/widget/src/**/*.js"],
    languageOptions: { sourceType: "module", globals: globals.browser },
  },
  {
    // the unit tests: ES modules run by `node --test`
    files: ["tests/widget/js/**/*.mjs"],
    languageOptions: { sourceType: "module", globals: globals.node },
  },
];
