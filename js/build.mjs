// Bundles each entry (a game's renderer with the shared timeline, and the generic renderer)
// into the package's static folder, twice: an ES module for anywidget (`<entry>.js`) and a
// classic script for the standalone HTML replay (`<entry>.standalone.js`, which sets the
// global `TabletopWidget`), since an inline <script> cannot import an ES module from a file.
// A new game adds its file name here.
import { existsSync } from "node:fs";
import { build } from "esbuild";

const ENTRIES = ["generic", "mamba", "mamma_mia", "mammuz"];

const missing = ENTRIES.filter((name) => !existsSync(`src/${name}.js`));
if (missing.length) {
  throw new Error(`build.mjs lists entries without a source file: ${missing.map((n) => `src/${n}.js`).join(", ")}`);
}

const common = {
  bundle: true,
  target: "es2020",
  outdir: "../tabletop_widgets/static",
  loader: { ".css": "text" },
  legalComments: "none",
  logLevel: "info",
};

await build({
  ...common,
  entryPoints: Object.fromEntries(ENTRIES.map((name) => [name, `src/${name}.js`])),
  format: "esm",
});
await build({
  ...common,
  entryPoints: Object.fromEntries(ENTRIES.map((name) => [`${name}.standalone`, `src/${name}.js`])),
  format: "iife",
  globalName: "TabletopWidget",
});
