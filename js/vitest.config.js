// Vitest runs the renderers in jsdom. CSS files are imported as text, as esbuild's
// `loader: {".css": "text"}` does in build.mjs, so tests see the same module shapes.
import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

// The virtual id must not end in ".css", or Vitest's own CSS handling empties the module.
const TEXT = "\0css-text:";
const SUFFIX = ".text.js";

export default defineConfig({
  plugins: [
    {
      name: "css-as-text",
      enforce: "pre",
      async resolveId(source, importer, options) {
        if (!source.endsWith(".css")) return null;
        const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
        return resolved ? TEXT + resolved.id + SUFFIX : null;
      },
      load(id) {
        if (!id.startsWith(TEXT)) return null;
        return `export default ${JSON.stringify(readFileSync(id.slice(TEXT.length, -SUFFIX.length), "utf8"))};`;
      },
    },
  ],
  test: {
    environment: "jsdom",
    include: ["tests/**/*.test.js"],
  },
});
