// The explorer page of `cgtb serve` (tools/serve_page.hpp) in headless
// Chromium. run.sh starts the server and sets CGTB_URL, CGTB_BINARY,
// CGTB_TABLES (the folder of the served files) and CHROMIUM. Every value the
// page shows is checked against `cgtb query --json` (--options) run here, and
// /api/query against the same: nothing is compared to numbers written in
// this file.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";

const base = process.env.CGTB_URL;
const cgtb = process.env.CGTB_BINARY;
const tables = process.env.CGTB_TABLES;
const shots = process.env.CGTB_SCREENSHOTS || "";
const CRAM = "cram-3x4.cgtb";
const OCTAL = "octal-0.07.cgtb";
const NORMAL_ONLY = "octal-0.07-normal.cgtb"; // --values normal: no misere values
const WIN = "\u2714 wins";

/// What the CLI prints for a position: {json} or {error} (its one-line message).
function cli(name, pos, options = false) {
  const args = ["query", path.join(tables, name), "--json"];
  if (options) args.push("--options");
  args.push(pos);
  try {
    return { json: JSON.parse(execFileSync(cgtb, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })) };
  } catch (e) {
    if (e.status === undefined || e.status === null) throw e;
    return { error: String(e.stderr).replace(/^cgtb: error: /, "").trim() };
  }
}

async function api(kind, name, pos) {
  const r = await fetch(`${base}/api/${kind}?tb=${encodeURIComponent(name)}&pos=${encodeURIComponent(pos)}`);
  return { status: r.status, body: await r.json() };
}

/// The page's value of a JSON field, as valuesTable writes it.
const shown = (v) => (Array.isArray(v) ? v.join(" ") : String(v));

/// Everything the page shows below #main, read from the DOM.
function readPage(page) {
  return page.evaluate(() => {
    const main = document.getElementById("main");
    const box = main.querySelector("input.pos");
    const vals = {};
    const vt = main.querySelector("table.vals");
    if (vt) for (const tr of vt.rows) vals[tr.cells[0].textContent] = tr.cells[1].textContent;
    const options = [...main.querySelectorAll("table.opts")].map((t) => {
      const head = [...t.rows[0].cells].map((c) => c.textContent);
      return [...t.rows].slice(1).map((r) => {
        const o = {};
        [...r.cells].forEach((c, i) => (o[head[i]] = c.textContent));
        o._winClass = [...r.cells].slice(-2).map((c) => c.classList.contains("win"));
        return o;
      });
    });
    const bt = main.querySelector("table.board");
    const board = bt
      ? [...bt.rows]
          .map((r) => [...r.cells].map((c) => (c.classList.contains("covered") ? "#" : ".")).join(""))
          .join("/")
      : null;
    return {
      box: box ? box.value : null,
      search: location.search,
      hasValues: !!vt,
      vals,
      options,
      board,
      cellCount: bt ? bt.querySelectorAll("td").length : 0,
      rowCount: bt ? bt.rows.length : 0,
      errors: [...main.querySelectorAll(".err")].map((e) => e.textContent),
    };
  });
}

/// Waits until the page has answered for its position (values or an error).
async function settled(page) {
  await page.waitForFunction(() => {
    const m = document.getElementById("main");
    return m && m.querySelector("input.pos") && (m.querySelector("table.vals") || m.querySelector(".err"));
  });
  return readPage(page);
}

/// The page shows `pos` with the values and options the CLI gives for it, and
/// marks the winning options as the listed values say.
async function checkPosition(page, name, pos, { board = null } = {}) {
  const st = await settled(page);
  assert.deepEqual(st.errors, [], `no error for ${pos}`);
  assert.equal(st.box, pos, "the text box holds the position");
  assert.equal(new URLSearchParams(st.search).get("pos"), pos, "the address bar names the position");
  assert.equal(new URLSearchParams(st.search).get("tb"), name);
  if (board !== null) assert.equal(st.board, board, "the board as drawn");

  const q = cli(name, pos);
  assert.ok(q.json, `the CLI answers ${pos}: ${q.error}`);
  const a = await api("query", name, pos);
  assert.equal(a.status, 200);
  assert.deepEqual(a.body, q.json, "/api/query answers as cgtb query --json");
  const want = Object.fromEntries(Object.entries(q.json).filter(([k]) => k !== "position"));
  assert.deepEqual(
    st.vals,
    Object.fromEntries(Object.entries(want).map(([k, v]) => [k, shown(v)])),
    `values shown for ${pos}`,
  );

  const o = cli(name, pos, true).json;
  assert.ok(o && Array.isArray(o.options), "impartial options from the CLI");
  if (o.options.length === 0) {
    assert.equal(st.options.length, 0);
    return st;
  }
  assert.equal(st.options.length, 1, "one options table");
  const rows = st.options[0];
  assert.deepEqual(
    rows.map((r) => r.move),
    o.options.map((x) => x.move),
    "every option listed, in the CLI's order",
  );
  rows.forEach((r, i) => {
    for (const [k, v] of Object.entries(o.options[i])) assert.equal(r[k], shown(v), `option ${r.move}: ${k}`);
  });
  // The marks, from the values listed on the page: a normal-play winning move
  // leads to Grundy value 0, a misere winning move to misere value 0.
  for (const r of rows) {
    assert.equal(r["wins (normal)"] === WIN, r.grundy === "0", `normal mark of ${r.move} (grundy ${r.grundy})`);
    assert.equal(r["wins (mis\u00e8re)"] === WIN, r.misere === "0", `misere mark of ${r.move} (misere ${r.misere})`);
    assert.deepEqual(r._winClass, [r.grundy === "0", r.misere === "0"], `win class of ${r.move}`);
  }
  const normalWins = rows.filter((r) => r["wins (normal)"] === WIN).map((r) => r.move);
  const misereWins = rows.filter((r) => r["wins (mis\u00e8re)"] === WIN).map((r) => r.move);
  // ...and consistently with the position's own values shown above them.
  assert.equal(normalWins.length > 0, st.vals.grundy !== "0", "a winning normal move iff Grundy value is not 0");
  assert.equal(misereWins.length > 0, st.vals.misere !== "0", "a winning misere move iff misere value is not 0");
  assert.deepEqual([...normalWins].sort(), [...q.json.normal_winning_moves].sort(), "normal winning moves");
  assert.deepEqual([...misereWins].sort(), [...q.json.misere_winning_moves].sort(), "misere winning moves");
  return st;
}

/// Types a position into the text box and presses Enter.
async function typePosition(page, text) {
  const box = page.locator("#main input.pos");
  await box.fill(text);
  await box.press("Enter");
}

async function clickCell(page, r, c) {
  await page.locator("table.board tr").nth(r).locator("td").nth(c).click();
}

let browser, page;
const pageErrors = [];

before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  page.setDefaultTimeout(10000);
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  // The page fetches nothing but the server's own API.
  page.on("request", (r) => {
    if (!r.url().startsWith(base + "/")) pageErrors.push("request to " + r.url());
  });
});

after(async () => {
  if (browser) await browser.close();
});

test("the list of tablebases links each served file", async () => {
  await page.goto(base + "/");
  await page.waitForSelector("#main li");
  const links = await page.$$eval("#main li a", (as) => as.map((a) => a.textContent));
  assert.deepEqual(links, [CRAM, OCTAL, NORMAL_ONLY]);
  await page.click(`text=${CRAM}`);
  await checkPosition(page, CRAM, "..../..../....", { board: "..../..../...." });
});

test("Cram: the board is a grid; a domino, undo, reset", async () => {
  await page.goto(`${base}/?tb=${CRAM}`);
  const start = "..../..../....";
  const st0 = await checkPosition(page, CRAM, start, { board: start });
  assert.equal(st0.rowCount, 3);
  assert.equal(st0.cellCount, 12);
  assert.ok(st0.vals.genus, "the table stores genus");

  // a1 and b1: a horizontal domino on the first row.
  await clickCell(page, 0, 0);
  await page.waitForSelector("table.board td.sel");
  await clickCell(page, 0, 1);
  const p1 = "##../..../....";
  const st1 = await checkPosition(page, CRAM, p1, { board: p1 });
  assert.notDeepEqual(st1.vals, st0.vals, "the values changed with the position");

  // d2 and d3: a vertical one.
  await clickCell(page, 1, 3);
  await clickCell(page, 2, 3);
  const p2 = "##../...#/...#";
  await checkPosition(page, CRAM, p2, { board: p2 });

  // Two cells that are not adjacent place nothing.
  await clickCell(page, 2, 0);
  await clickCell(page, 2, 2);
  assert.equal((await readPage(page)).board, p2);
  await clickCell(page, 2, 2); // deselects
  assert.equal(await page.locator("table.board td.sel").count(), 0);

  await page.click("text=Undo");
  await checkPosition(page, CRAM, p1, { board: p1 });
  await page.click("text=Undo");
  await checkPosition(page, CRAM, start, { board: start });

  await clickCell(page, 1, 1);
  await clickCell(page, 2, 1);
  await checkPosition(page, CRAM, "..../.#../.#..");
  await page.click("text=Reset");
  await checkPosition(page, CRAM, start, { board: start });
});

test("Cram: a move in the options table plays it", async () => {
  await page.goto(`${base}/?tb=${CRAM}`);
  const st = await checkPosition(page, CRAM, "..../..../....");
  const first = st.options[0][0];
  await page.locator("table.opts a.move", { hasText: first.move }).first().click();
  await checkPosition(page, CRAM, first.position, { board: first.position });
  if (shots) {
    await page.screenshot({ path: path.join(shots, "explorer-cram.png"), fullPage: true });
  }
});

test("Cram: the text box and a permalink", async () => {
  await page.goto(`${base}/?tb=${CRAM}`);
  await settled(page);
  const typed = "#.../#.../....";
  await typePosition(page, typed);
  await checkPosition(page, CRAM, typed, { board: typed });

  const linked = "##../##../....";
  await page.goto(`${base}/?tb=${encodeURIComponent(CRAM)}&pos=${encodeURIComponent(linked)}`);
  await checkPosition(page, CRAM, linked, { board: linked });
  // The address bar after a move is itself a permalink.
  await clickCell(page, 2, 0);
  await clickCell(page, 2, 1);
  const moved = "##../##../##..";
  await checkPosition(page, CRAM, moved, { board: moved });
  const again = await browser.newPage();
  try {
    await again.goto(page.url());
    await checkPosition(again, CRAM, moved, { board: moved });
  } finally {
    await again.close();
  }
});

test("Cram: a malformed position shows the server's error and the page keeps working", async () => {
  await page.goto(`${base}/?tb=${CRAM}`);
  await settled(page);
  for (const bad of ["zz", "...../...../.....", "##../##../##.#"]) {
    await typePosition(page, bad);
    const st = await settled(page);
    const want = cli(CRAM, bad);
    assert.ok(want.error, `the CLI refuses ${bad}`);
    const a = await api("query", CRAM, bad);
    assert.equal(a.status, 400);
    assert.equal(a.body.error, want.error);
    assert.deepEqual(st.errors, ["error: " + want.error], `the error shown for ${bad}`);
    assert.equal(st.hasValues, false);
  }
  await typePosition(page, "..../..../....");
  await checkPosition(page, CRAM, "..../..../....", { board: "..../..../...." });
  await clickCell(page, 0, 2);
  await clickCell(page, 0, 3);
  await checkPosition(page, CRAM, "..##/..../....", { board: "..##/..../...." });
  // A malformed permalink too.
  await page.goto(`${base}/?tb=${CRAM}&pos=${encodeURIComponent("#")}`);
  const st = await settled(page);
  assert.deepEqual(st.errors, ["error: " + cli(CRAM, "#").error]);
  await page.click("text=Reset");
  await checkPosition(page, CRAM, "..../..../....", { board: "..../..../...." });
});

test("octal: no board, the text box, options, an error", async () => {
  await page.goto(`${base}/?tb=${OCTAL}`);
  await page.waitForSelector("#main input.pos");
  assert.equal(await page.locator("table.board").count(), 0, "no board for a heap game");
  for (const heaps of ["3 5", "7", "4 4 2"]) {
    await typePosition(page, heaps);
    await checkPosition(page, OCTAL, heaps);
  }
  const st = await readPage(page);
  const first = st.options[0][0];
  await page.locator("table.opts a.move").first().click();
  await checkPosition(page, OCTAL, first.position);
  await page.click("text=Undo");
  await checkPosition(page, OCTAL, "4 4 2");

  await typePosition(page, "3 x");
  const bad = await settled(page);
  assert.deepEqual(bad.errors, ["error: " + cli(OCTAL, "3 x").error]);
  await typePosition(page, "6 2");
  await checkPosition(page, OCTAL, "6 2");
  if (shots) {
    await page.screenshot({ path: path.join(shots, "explorer-octal.png"), fullPage: true });
  }
  await page.goto(`${base}/?tb=${OCTAL}&pos=${encodeURIComponent("5 1")}`);
  await checkPosition(page, OCTAL, "5 1");
});

test("a table without misere values has no misere column", async () => {
  await page.goto(`${base}/?tb=${NORMAL_ONLY}&pos=${encodeURIComponent("4 3")}`);
  const st = await settled(page);
  assert.deepEqual(st.errors, []);
  const head = await page.$$eval("table.opts tr:first-child th", (ths) => ths.map((th) => th.textContent));
  assert.ok(head.includes("wins (normal)"), `a normal column: ${head}`);
  assert.ok(!head.some((h) => h.includes("mis")), `no misere column: ${head}`);
  const q = cli(NORMAL_ONLY, "4 3").json;
  const marked = st.options[0].filter((r) => r["wins (normal)"] === WIN).map((r) => r.move);
  assert.deepEqual(marked.sort(), [...q.normal_winning_moves].sort(), "normal winning moves");
  assert.ok(!st.options[0].some((r) => Object.values(r).includes("?")), "no '?' cell");
});

test("an unknown tablebase in a link", async () => {
  await page.goto(`${base}/?tb=nope.cgtb`);
  await page.waitForSelector("#main .err");
  assert.match(await page.locator("#main .err").textContent(), /unknown tablebase nope\.cgtb/);
  assert.equal(await page.locator("#main li").count(), 3);
});

test("no script errors and no requests elsewhere", () => {
  assert.deepEqual(pageErrors, []);
});
