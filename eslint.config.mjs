// ESLint for the viewer's scripts (src/pypto_ir_trace/static). They are classic scripts that the page runs
// in the order of static/scripts.json, sharing their top-level names as globals: each script is given, as
// read-only globals, the names the scripts before it define, so a use of a name defined later (or nowhere)
// is an error, and what a script defines for the others is counted as used.
import { readFileSync } from "node:fs";
import js from "@eslint/js";
import globals from "globals";

const STATIC = "src/pypto_ir_trace/static";
const manifest = JSON.parse(readFileSync(new URL(`./${STATIC}/scripts.json`, import.meta.url), "utf8"));

/** One config per script: the browser's globals and those of the scripts before it. */
function inOrder(entries, earlier = {}) {
  const configs = [];
  const known = { ...earlier };
  for (const { file, defines } of entries) {
    configs.push({
      files: [`${STATIC}/${file}`],
      languageOptions: { globals: { ...known } },
      rules: { "no-unused-vars": ["error", { varsIgnorePattern: defines.length ? `^(${defines.join("|")})$` : "^$" }] },
    });
    for (const name of defines) known[name] = "readonly";
  }
  return { configs, known };
}

const loader = inOrder(manifest.loader);
const viewer = inOrder(manifest.viewer, loader.known);
const index = inOrder(manifest.index);  // the index page's script: heatgrid.js is shared with the viewer

export default [
  { ignores: ["node_modules/", "**/.venv/"] },
  {
    files: [`${STATIC}/**/*.js`],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.browser } },
  },
  {
    files: [`${STATIC}/**/*.js`],
    rules: {
      "no-unused-vars": "error",
      "no-var": "error",
      "prefer-const": "error",
      eqeqeq: ["error", "always"],
      "no-shadow-restricted-names": "error",
      // Short functions; a longer one says why beside it (eslint-disable-next-line ... -- the reason).
      "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  ...loader.configs,
  ...viewer.configs,
  ...index.configs.filter(config => !viewer.configs.some(other => other.files[0] === config.files[0])),
];
