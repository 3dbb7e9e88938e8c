// Bundles one ES module per game (each with the shared timeline) into the package's static folder.
import { build } from "esbuild";

await build({
  entryPoints: { mamba: "src/mamba.js", mamma_mia: "src/mamma_mia.js" },
  bundle: true,
  format: "esm",
  target: "es2020",
  outdir: "../tabletop_widgets/static",
  loader: { ".css": "text" },
  logLevel: "info",
});
