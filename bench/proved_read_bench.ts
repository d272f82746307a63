/**
 * The cost of the [S-9] proof on a Level-2 read (MCP `skill_view` of a file): a file of a
 * quiet skill folder proved in one bottom-up look, against the same file opened with no
 * proof at all and against a folder in motion (changed this second: `MOVING_ROUNDS`
 * looks). Run: `deno bench --allow-read --allow-write bench/proved_read_bench.ts`.
 */
import { openInside, readCapped } from "../src/files/open_inside.ts";

const dir = Deno.makeTempDirSync({ prefix: "skillrt-bench-" });
Deno.mkdirSync(`${dir}/quiet/references`, { recursive: true });
Deno.mkdirSync(`${dir}/moving/references`, { recursive: true });
for (const d of ["quiet", "moving"]) {
  Deno.writeTextFileSync(`${dir}/${d}/references/notes.md`, "# Notes\n\n" + "text ".repeat(400));
}
// The quiet folder's last change must be over a second old (ctime has whole seconds).
const settle = Date.now() + 2100;
while (Date.now() < settle) { /* wait */ }
globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));

Deno.bench("read: open, no proof", { group: "read", baseline: true }, () => {
  using file = Deno.openSync(`${dir}/quiet/references/notes.md`);
  readCapped(file, 1 << 20);
});

Deno.bench("read: proved, quiet folder (one look)", { group: "read" }, () => {
  using file = openInside(`${dir}/quiet`, "references/notes.md");
  readCapped(file, 1 << 20);
});

Deno.bench("read: proved, folder in motion (MOVING_ROUNDS looks)", { group: "read" }, () => {
  Deno.utimeSync(`${dir}/moving/references`, new Date(), new Date()); // ctime: now
  using file = openInside(`${dir}/moving`, "references/notes.md");
  readCapped(file, 1 << 20);
});
