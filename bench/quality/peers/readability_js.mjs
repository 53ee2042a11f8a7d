// bench/quality/peers/readability_js.mjs: the peer Readability.js (npm @mozilla/readability, the
// Firefox Reader View) with jsdom, on prepared pages:
//   NDD_WEBDEV_TOOLS=/work/webdev-tools node readability_js.mjs OUTDIR FILE...
// Writes OUTDIR/<id>.content.html (parse().content, the article HTML, as expected.html is made) and
// OUTDIR/pages.tsv (id, html_bytes, CPU seconds of the process for the jsdom parse and parse()).
import { createRequire } from "module";
import fs from "fs";
import path from "path";

const require = createRequire(process.env.NDD_WEBDEV_TOOLS + "/node_modules/");
const { JSDOM, VirtualConsole } = require("jsdom");
const { Readability } = require("@mozilla/readability");

function extract(html) {
  // no scripts, no resources, a quiet console: the page as a static document
  const dom = new JSDOM(html, { url: "http://localhost/", virtualConsole: new VirtualConsole() });
  const art = new Readability(dom.window.document).parse();
  dom.window.close();
  return art ? art.content : "";
}

const [out, ...files] = process.argv.slice(2);
// warm the JIT on the first 20 pages, untimed, so the figure is the steady speed
for (const file of files.slice(0, 20)) {
  try { extract(fs.readFileSync(file, "utf8")); } catch (e) { /* reported below */ }
}
const tsv = [];
for (const file of files) {
  const id = path.basename(file).slice(0, -".html".length);
  const html = fs.readFileSync(file, "utf8");
  const t0 = process.cpuUsage();
  let content = null;
  try {
    content = extract(html);
  } catch (e) {
    console.error(`readability.js: ${id}: ${e}`);
  }
  const t = process.cpuUsage(t0);
  if (content !== null) fs.writeFileSync(path.join(out, id + ".content.html"), content);
  tsv.push(`${id}\t${Buffer.byteLength(html, "utf8")}\t${((t.user + t.system) / 1e6).toFixed(6)}\n`);
}
fs.writeFileSync(path.join(out, "pages.tsv"), tsv.join(""));
