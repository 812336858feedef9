// Builds the served widget files from the readable source:
//   static/widget/src/loader.js -> static/widget/v1/loader.js  (first paint, <= 8 KB gzipped)
//   static/widget/src/panel.js  -> static/widget/v1/panel.js   (loaded on demand)
// `node build.mjs --check` builds in memory and fails if the served files differ (CI).
// `node build.mjs --out DIR` writes somewhere else.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { createHash } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const source = resolve(here, "../static/widget/src");
const args = process.argv.slice(2);
const check = args.includes("--check");
const outIndex = args.indexOf("--out");
const out = outIndex >= 0 ? resolve(args[outIndex + 1]) : resolve(here, "../static/widget/v1");

const BANNER = "/*! Shop chat widget v1. Built by .widget-build/build.mjs from static/widget/src/ " +
  "(readable source there). Contract: static/widget/README.md */";

async function bundle(entry, define = {}) {
  const result = await esbuild.build({
    entryPoints: [join(source, entry)],
    bundle: true,
    format: "iife",
    minify: true,
    target: ["chrome100", "firefox100", "safari15.4"],
    charset: "utf8",
    legalComments: "none",
    banner: { js: BANNER },
    define,
    write: false,
    logLevel: "warning",
  });
  return Buffer.from(result.outputFiles[0].contents);
}

const panel = await bundle("panel.js");
const panelVersion = createHash("sha256").update(panel).digest("hex").slice(0, 12);
const loader = await bundle("loader.js", { PANEL_VERSION: JSON.stringify(panelVersion) });
const files = { "loader.js": loader, "panel.js": panel };

let stale = [];
for (const [name, content] of Object.entries(files)) {
  const path = join(out, name);
  if (check) {
    let current = null;
    try {
      current = readFileSync(path);
    } catch {}
    if (!current || !current.equals(content)) stale.push(path);
  } else {
    mkdirSync(out, { recursive: true });
    writeFileSync(path, content);
    console.log(`${path}: ${content.length} bytes`);
  }
}
if (stale.length) {
  console.error(`Not the build of static/widget/src: ${stale.join(", ")}. Run: make widget`);
  process.exit(1);
}
