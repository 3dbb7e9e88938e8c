// @vitest-environment jsdom
import { describe, expect, it, vi } from "vitest";
import {
  ALL_CELLS,
  boardSvg,
  boardToPosition,
  cellCenter,
  cellSvg,
  cellIndex,
  emptyMarks,
  frameMarks,
  isSuccessor,
  legendHtml,
  MAMBA_CSS,
  markedCells,
  nextInCycle,
  parseLegal,
  parsePosition,
  stepCell,
} from "../src/mamba_board.js";

// ---------------------------------------------------------------------------------------
// fake observations, built cell by cell so the tests do not copy the engine's output

function boardWith(stones) {
  const cells = new Array(81).fill(".");
  for (const [side, list] of Object.entries(stones)) {
    for (const cell of list) cells[cellIndex(cell)] = side;
  }
  return cells.join("");
}

const SOUTH_H = ["d1", "d2", "d3", "f1", "f2", "f3", "e2"];
const NORTH_H = ["d7", "d8", "d9", "f7", "f8", "f9", "e8"];

function view2(stones = { S: SOUTH_H, N: NORTH_H }, extra = {}) {
  return {
    game: "mamba",
    players: 2,
    seats: ["South", "North"],
    sides: ["S", "N"],
    board: boardWith(stones),
    to_move: 0,
    phase: "birth_or_move",
    parents: [],
    trim: null,
    stones: [stones.S?.length ?? 0, stones.N?.length ?? 0],
    goal: 4,
    turn: 1,
    winners: [],
    position: "",
    options: {},
    ...extra,
  };
}

function renderSvg(view, marks) {
  const host = document.createElement("div");
  host.innerHTML = boardSvg(view, marks);
  return host.querySelector("svg");
}

// ---------------------------------------------------------------------------------------

describe("geometry and notation", () => {
  it("indexes cells as (rank-1)*9 + file and draws rank 9 at the top", () => {
    expect(cellIndex("a1")).toBe(0);
    expect(cellIndex("i1")).toBe(8);
    expect(cellIndex("a2")).toBe(9);
    expect(cellIndex("i9")).toBe(80);
    expect(cellIndex("j1")).toBe(-1);
    expect(cellIndex("a0")).toBe(-1);
    expect(cellCenter("a9").y).toBeLessThan(cellCenter("a1").y);
    expect(cellCenter("i1").x).toBeGreaterThan(cellCenter("a1").x);
  });

  it("steps the keyboard cursor to orthogonal neighbours, not off the board", () => {
    expect(stepCell("e5", "up")).toBe("e6");
    expect(stepCell("e5", "right")).toBe("f5");
    expect(stepCell("a1", "left")).toBeNull();
    expect(stepCell("i9", "up")).toBeNull();
    expect(stepCell("i9", "down")).toBe("i8");
  });

  it("writes and reads the position notation", () => {
    const board = boardWith({ N: ["c5", "d5", "e5"], S: ["c3", "d3", "e3"] });
    const text = boardToPosition(board, "S");
    expect(text).toBe("9/9/9/9/2NNN4/9/2SSS4/9/9 S");
    const back = parsePosition(text);
    expect(back.board.join("")).toBe(board);
    expect(back.side).toBe("S");
    expect(boardToPosition(board, "N", ["e5", "g2"])).toMatch(/ N e5,g2$/);
    expect(boardToPosition(board, "N", [])).toMatch(/ N -$/);
  });

  it("rejects malformed positions with a reason", () => {
    expect(() => parsePosition("9/9/9 S")).toThrow(/9 ranks/);
    expect(() => parsePosition("9/9/9/9/2NNN5/9/2SSS4/9/9 S")).toThrow(/rank 5 has 10 cells/);
    expect(() => parsePosition("9/9/9/9/2NXN4/9/2SSS4/9/9 S")).toThrow(/neither a digit nor a side/);
    expect(() => parsePosition("9/9/9/9/2NNN4/9/2SSS4/9/9 Q")).toThrow(/side to move/);
    expect(() => parsePosition("9/9/9/9/2NNN4/9/2SSS4/9/9")).toThrow(/side to move/);
  });

  it("cycles a cell through the sides in play only", () => {
    expect(nextInCycle(".", ["S", "N"])).toBe("S");
    expect(nextInCycle("S", ["S", "N"])).toBe("N");
    expect(nextInCycle("N", ["S", "N"])).toBe(".");
    expect(nextInCycle("N", ["N", "E", "W"])).toBe("E");
    expect(nextInCycle("W", ["S", "W", "N", "E"])).toBe(".");
    expect(nextInCycle(".", ["S", "N"], true)).toBe("N");
  });

  it("sorts legal notations into moves, births and trims", () => {
    const legal = parseLegal(["d3-d4", "d3-e4", "e5*e6", "e5*d5", "trim a5", "trim e5", "nonsense"]);
    expect(legal.moves.get("d3")).toEqual(["d4", "e4"]);
    expect(legal.births.get("e5")).toEqual(["e6", "d5"]);
    expect([...legal.trims].sort()).toEqual(["a5", "e5"]);
    expect(legal.moves.size).toBe(1);
  });
});

describe("drawing the board", () => {
  it("draws 81 cells with alleys between orthogonal neighbours", () => {
    const svg = renderSvg(view2());
    expect(svg.classList.contains("mamba-board")).toBe(true);
    const cells = svg.querySelectorAll("[data-cell]");
    expect(cells).toHaveLength(81);
    expect(new Set([...cells].map((c) => c.dataset.cell)).size).toBe(81);
    // 9 rows × 8 horizontal alleys + 9 columns × 8 vertical ones, each between neighbours.
    const segments = svg.querySelector(".alleys").getAttribute("d").match(/M[^M]+/g);
    expect(segments).toHaveLength(144);
    for (const seg of segments) {
      const [x1, y1, x2, y2] = seg.match(/-?\d+(\.\d+)?/g).map(Number);
      expect(Math.abs(x1 - x2) + Math.abs(y1 - y2)).toBe(40);
    }
  });

  it("puts each stone in its cell, its snout toward its owner", () => {
    const svg = renderSvg(view2());
    const stones = [...svg.querySelectorAll("[data-stone]")];
    expect(stones).toHaveLength(14);
    for (const cell of SOUTH_H) {
      const stone = svg.querySelector(`[data-cell="${cell}"] [data-stone]`);
      expect(stone.dataset.stone).toBe("S");
      expect(stone.dataset.snout).toBe("down");
    }
    for (const cell of NORTH_H) {
      const stone = svg.querySelector(`[data-cell="${cell}"] [data-stone]`);
      expect(stone.dataset.stone).toBe("N");
      expect(stone.dataset.snout).toBe("up");
    }
    expect(svg.querySelector('[data-cell="e5"] [data-stone]')).toBeNull();
  });

  it("turns the snout geometry itself, not only the colour", () => {
    const board = boardWith({ S: ["a1"], N: ["b1"], E: ["c1"], W: ["d1"] });
    const svg = renderSvg({ ...view2(), board, players: 4, sides: ["S", "W", "N", "E"] });
    const rotation = (cell) => svg.querySelector(`[data-cell="${cell}"] .stone-body`).getAttribute("transform");
    const rotations = ["a1", "b1", "c1", "d1"].map(rotation);
    expect(new Set(rotations).size).toBe(4);
    const snouts = ["a1", "b1", "c1", "d1"].map(
      (c) => svg.querySelector(`[data-cell="${c}"] [data-stone]`).dataset.snout,
    );
    expect(snouts).toEqual(["down", "up", "right", "left"]);
  });

  it("rings isolated parents and the run waiting for a trim", () => {
    const view = view2(
      { S: ["a5", "b5", "c5", "d5", "e5", "h1"], N: ["h9"] },
      { parents: ["h1"], phase: "trim", trim: { seat: 0, run: ["a5", "b5", "c5", "d5", "e5"], ends: ["a5", "e5"] } },
    );
    const svg = renderSvg(view, frameMarks({ step: 3, sub: 0, kind: "move", data: {}, view }, null));
    expect(svg.querySelectorAll(".parent-ring")).toHaveLength(1);
    expect(svg.querySelector('[data-cell="h1"]').classList.contains("parent")).toBe(true);
    expect(svg.querySelectorAll(".run-ring")).toHaveLength(5);
    expect([...svg.querySelectorAll(".cell.end")].map((c) => c.dataset.cell).sort()).toEqual(["a5", "e5"]);
  });

  it("marks the stones a suffocation wave removes, with the side they had", () => {
    // e1 (an edge cell) was South and suffocated: its cross d1 f1 e2 was full.
    const prevView = view2({ S: ["e1"], N: ["d1", "f1", "e2"] });
    const view = view2({ N: ["d1", "f1", "e2"] });
    const prev = { step: 4, sub: 0, kind: "move", data: {}, view: prevView, last: false };
    const frame = { step: 4, sub: 1, kind: "suffocation", data: { cells: ["e1"] }, view, last: true };
    const marks = frameMarks(frame, prev);
    expect(marks.animate).toBe(true);
    const svg = renderSvg(view, marks);
    const dying = svg.querySelector('[data-cell="e1"] .stone.dying');
    expect(dying).not.toBeNull();
    expect(dying.getAttribute("data-dying")).toBe("S");
    expect(dying.hasAttribute("data-stone")).toBe(false);
    expect(svg.classList.contains("animate")).toBe(true);
    expect(svg.querySelectorAll("[data-stone]")).toHaveLength(3);
  });

  it("draws a frame reached by a jump statically, from its own view", () => {
    const view = view2({ N: ["d1", "f1", "e2"] });
    const later = { step: 9, sub: 0, kind: "move", data: {}, view: view2({ S: ["a1"] }), last: true };
    const frame = { step: 4, sub: 1, kind: "suffocation", data: { cells: ["e1"] }, view, last: true };
    expect(isSuccessor(frame, later)).toBe(false);
    const marks = frameMarks(frame, later);
    expect(marks.animate).toBe(false);
    const svg = renderSvg(view, marks);
    expect(svg.classList.contains("animate")).toBe(false);
    // The later frame's stone at a1 must not leak into this one.
    expect(svg.querySelector('[data-cell="a1"] [data-stone]')).toBeNull();
    expect(svg.querySelector('[data-cell="e1"] .death-mark')).not.toBeNull();
  });

  it("turns transformed stones from their old side and locks held ones", () => {
    const prevView = view2({ S: ["a1", "b1"], N: ["c1", "e5"] });
    const view = view2({ S: ["a1", "b1", "c1"], N: ["e5"] });
    const prev = { step: 2, sub: 0, kind: "move", data: {}, view: prevView, last: false };
    const frame = { step: 2, sub: 1, kind: "transformation", data: { cells: ["c1"], to: 0, from: [1] }, view };
    const svg = renderSvg(view, frameMarks(frame, prev));
    const turned = svg.querySelector('[data-cell="c1"] .stone.turned');
    expect(turned.dataset.stone).toBe("S");
    expect(turned.dataset.turnedFrom).toBe("N");
    const held = { step: 2, sub: 2, kind: "held", data: { cells: ["e5"], against: 2 }, view };
    const svg2 = renderSvg(view, frameMarks(held, frame));
    expect(svg2.querySelector('[data-cell="e5"]').classList.contains("held")).toBe(true);
    expect(svg2.querySelectorAll(".held-mark")).toHaveLength(1);
  });

  it("knows a transformed stone's old side from the event alone after a jump", () => {
    const view = view2({ S: ["a1", "b1", "c1", "d1"], N: ["e5"] });
    const data = { cells: ["c1", "d1"], to: 0, from: [1, 1] };
    const marks = frameMarks({ step: 2, sub: 1, kind: "transformation", data, view }, null);
    expect(marks.animate).toBe(false);
    expect([...marks.turned.entries()]).toEqual([
      ["c1", "N"],
      ["d1", "N"],
    ]);
  });

  it("rings an overpopulated run without killing it, and fades what a trim removes", () => {
    const run = ["a5", "b5", "c5", "d5", "e5"];
    const full = view2({ S: run, N: ["i9"] }, { phase: "trim", trim: { seat: 0, run, ends: ["a5", "e5"] } });
    const over = { step: 3, sub: 1, kind: "overpopulation", data: { cells: run, seat: 0, ends: ["a5", "e5"] }, view: full };
    const marks = frameMarks(over, null);
    expect(marks.dying.size).toBe(0);
    expect([...marks.run].sort()).toEqual(run);
    expect([...marks.ends].sort()).toEqual(["a5", "e5"]);
    // Trimmed from a5: the four left (b5–e5) say whose stone a5 was, even after a jump.
    const trimmed = view2({ S: run.slice(1), N: ["i9"] });
    const trim = { step: 4, sub: 0, kind: "trim", data: { cells: ["a5"], run, end: "a5" }, view: trimmed };
    const svg = renderSvg(trimmed, frameMarks(trim, null));
    expect(svg.querySelector('[data-cell="a5"] .stone.dying').getAttribute("data-dying")).toBe("S");
    expect(svg.querySelectorAll("[data-stone]")).toHaveLength(5);
  });

  it("marks a move's path and slides the stone only when stepping forward", () => {
    const prevView = view2({ S: ["d3"] });
    const view = view2({ S: ["e4"] });
    const frame = { step: 1, sub: 0, kind: "move", data: { from: "d3", to: "e4", path: ["d3", "d4", "e4"] }, view };
    const prev = { step: 0, sub: 0, kind: "setup", data: {}, view: prevView, last: true };
    const svg = renderSvg(view, frameMarks(frame, prev));
    expect(svg.querySelector(".move-path").getAttribute("points").split(" ")).toHaveLength(3);
    expect(svg.querySelector('[data-cell="d3"]').classList.contains("from")).toBe(true);
    expect(svg.querySelector('[data-cell="e4"] .stone').classList.contains("slid")).toBe(true);
    const back = renderSvg(view, frameMarks(frame, { ...prev, step: 2 }));
    expect(back.querySelector(".slid")).toBeNull();
    expect(back.querySelector(".move-path")).not.toBeNull();
  });

  it("draws a cell no mark names as it draws it with no marks (the widget writes such a cell once)", () => {
    // Every kind of mark, each on cells of its own.
    const marks = {
      ...emptyMarks(),
      animate: true,
      cycle: true,
      from: "a1",
      to: "a3",
      path: ["a1", "a2", "a3"],
      slide: { from: "a1", to: "a3", path: ["a1", "a2", "a3"] },
      dying: new Map([["b1", "N"], ["b2", null]]),
      newborn: new Set(["c1"]),
      parentUsed: "c2",
      turned: new Map([["d1", "N"]]),
      held: new Set(["d2"]),
      tug: new Set(["d3"]),
      run: new Set(["e1", "e2"]),
      ends: new Set(["e3"]),
      parents: new Set(["f1"]),
      selected: "f2",
      dests: new Set(["f3"]),
      births: new Set(["g1"]),
      trimEnds: new Set(["g2"]),
      pickable: new Set(["g3"]),
      focus: "h1",
    };
    const named = markedCells(marks);
    for (const cell of ALL_CELLS) {
      for (const content of [".", "S", "N"]) {
        const plain = cellSvg(cell, content, emptyMarks());
        if (named.has(cell)) continue;
        expect(cellSvg(cell, content, marks), `${cell} ${content}`).toBe(plain);
      }
    }
    // Each marked cell is named, and is drawn otherwise than a plain one.
    for (const cell of ["a1", "a2", "a3", "b1", "b2", "c1", "c2", "d1", "d2", "d3", "e1", "e3", "f1", "f2", "f3", "g1", "g2", "g3", "h1"]) {
      expect(named.has(cell), cell).toBe(true);
      expect(cellSvg(cell, "S", marks), cell).not.toBe(cellSvg(cell, "S", emptyMarks()));
    }
  });

  it("has a legend with seat, snout direction, count, turn and goal", () => {
    const host = document.createElement("div");
    host.innerHTML = legendHtml(view2({ S: SOUTH_H, N: ["d7", "d8"] }), ["Ann", "Bob"]);
    const rows = host.querySelectorAll(".seat");
    expect(rows).toHaveLength(2);
    expect(rows[0].textContent).toContain("Ann");
    expect(rows[0].querySelector(".count").textContent).toBe("7");
    expect(rows[1].querySelector(".count").textContent).toBe("2");
    expect(rows[0].classList.contains("to-move")).toBe(true);
    expect(rows[1].classList.contains("to-move")).toBe(false);
    expect(rows[0].querySelector(".dir").textContent).toBe("▼");
    expect(rows[1].querySelector(".dir").textContent).toBe("▲");
    expect(host.querySelector(".goal").textContent).toContain("4");
  });

  it("escapes seat names", () => {
    const host = document.createElement("div");
    host.innerHTML = legendHtml(view2(), ["<b>x</b>", "y"]);
    expect(host.querySelector(".seat b")).toBeNull();
  });

  it("offers only the marks it is given", () => {
    const marks = emptyMarks();
    marks.selected = "d3";
    marks.dests = new Set(["d4", "e4"]);
    const svg = renderSvg(view2(), marks);
    expect([...svg.querySelectorAll(".cell.offered")].map((c) => c.dataset.cell).sort()).toEqual(["d4", "e4"]);
    expect(svg.querySelector('[data-cell="d3"]').classList.contains("selected")).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------
// the widget, on the shared timeline, with a fake anywidget model

import widget, { mount } from "../src/mamba.js";
import { fakeModel as sharedFakeModel } from "./fake_model.js";

function fakeModel(traits = {}) {
  const values = {
    game: "mamba",
    seat_names: ["South", "North"],
    seat: null,
    cursor: 0,
    current: null,
    error: "",
    bot_seats: [],
    settings: {},
    ...traits,
  };
  return sharedFakeModel(values);
}

function frame(step, sub, view, extra = {}) {
  return { step, sub, caption: `step ${step}.${sub}`, kind: step ? "move" : "setup", data: {}, view, last: true, ...extra };
}

/** A widget showing `frames` with `legal` at the last step (the match cursor). */
function open(frames, legal, traits = {}) {
  const el = document.createElement("div");
  document.body.append(el);
  const cursor = frames[frames.length - 1].step;
  const model = fakeModel({ cursor, ...traits });
  const cleanup = widget.render({ model, el });
  model.deliver({ type: "frames", from: 0, frames });
  model.deliver({ type: "legal", step: cursor, to_move: frames[frames.length - 1].view.to_move, actions: legal });
  const q = (sel) => el.querySelector(sel);
  const click = (cell, init = {}) =>
    q(`svg.mamba-board [data-cell="${cell}"]`).dispatchEvent(new MouseEvent("click", { bubbles: true, ...init }));
  const plays = () => model.sent.filter((m) => m.type === "play").map((m) => m.action);
  return { el, model, cleanup, q, click, plays };
}

const START_LEGAL = ["d3-d4", "d3-c3", "d3-e3", "d3-d5", "d3-c4", "d3-e4", "f3-f4", "e2-e3"];

describe("the widget", () => {
  it("mounts inside the timeline root, with the board", () => {
    const w = open([frame(0, 0, view2())], START_LEGAL);
    expect(w.q(".tw-root svg.mamba-board")).not.toBeNull();
    expect(w.el.querySelectorAll("svg.mamba-board [data-stone]")).toHaveLength(14);
    expect(w.el.querySelectorAll(".legend .seat")).toHaveLength(2);
    w.cleanup();
  });

  it("plays a move: a stone, then one of its lit destinations", () => {
    const w = open([frame(0, 0, view2())], START_LEGAL);
    w.click("d3");
    const lit = [...w.el.querySelectorAll(".cell.dest")].map((c) => c.dataset.cell).sort();
    expect(lit).toEqual(["c3", "c4", "d4", "d5", "e3", "e4"]);
    expect(w.q('[data-cell="d3"]').classList.contains("selected")).toBe(true);
    w.click("e4");
    expect(w.plays()).toEqual(["d3-e4"]);
    expect(w.model.sent.find((m) => m.type === "play").step).toBe(0);
    w.cleanup();
  });

  it("tells the player to move by keyboard as well as by mouse, at every choice", () => {
    const w = open([frame(0, 0, view2())], START_LEGAL);
    const hint = () => w.q(".hint").textContent;
    expect(hint()).toMatch(/^South: pick one of your stones/);
    expect(hint()).toContain("arrow keys and Enter");
    w.click("d3");
    expect(hint()).toMatch(/^Move d3: pick a marked destination/);
    for (const text of [hint()]) expect(text).not.toMatch(/\bclick\b/i);
    w.cleanup();
  });

  it("offers only legal choices", () => {
    const w = open([frame(0, 0, view2())], START_LEGAL);
    w.click("d1"); // a South stone with no legal move here
    expect(w.el.querySelectorAll(".cell.dest")).toHaveLength(0);
    w.click("d7"); // North's stone
    w.click("d6");
    w.click("f3");
    w.click("f5"); // not a destination of f3 in the legal list: the selection is dropped
    expect(w.plays()).toEqual([]);
    expect(w.q(".cell.selected")).toBeNull();
    w.click("f4"); // nothing selected: an empty cell does nothing
    expect(w.plays()).toEqual([]);
    w.click("f3");
    w.click("f4");
    expect(w.plays()).toEqual(["f3-f4"]);
    w.cleanup();
  });

  it("Escape cancels a selection", () => {
    const w = open([frame(0, 0, view2())], START_LEGAL);
    w.click("d3");
    expect(w.el.querySelectorAll(".cell.dest").length).toBeGreaterThan(0);
    w.q(".board-host").dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    expect(w.el.querySelectorAll(".cell.dest")).toHaveLength(0);
    expect(w.q(".cell.selected")).toBeNull();
    w.click("e4");
    expect(w.plays()).toEqual([]);
    w.cleanup();
  });

  it("plays from the keyboard: arrows, Enter", () => {
    const w = open([frame(0, 0, view2())], START_LEGAL);
    const key = (k) => w.q(".board-host").dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
    key("ArrowDown"); // e5 → e4
    key("ArrowDown"); // e3
    key("ArrowLeft"); // d3
    expect(w.q(".cell.focus").dataset.cell).toBe("d3");
    key("Enter");
    key("ArrowUp"); // d4
    key("Enter");
    expect(w.plays()).toEqual(["d3-d4"]);
    w.cleanup();
  });

  it("gives birth: a ringed parent, then a cross cell; a second click moves it instead", () => {
    const view = view2({ S: ["e5", "a1", "b1"], N: ["i9", "h9", "g9", "f9", "e9"] }, { parents: ["e5"] });
    const legal = ["e5*e6", "e5*e4", "e5*d5", "e5*f5", "e5-e6", "e5-e7", "e5-d5", "a1-a2"];
    const w = open([frame(3, 0, view)], legal);
    expect(w.q('[data-cell="e5"] .parent-ring')).not.toBeNull();
    w.click("e5");
    const births = [...w.el.querySelectorAll(".cell.birth-target")].map((c) => c.dataset.cell).sort();
    expect(births).toEqual(["d5", "e4", "e6", "f5"]);
    w.click("e5"); // the same parent again: its moves
    expect(w.el.querySelectorAll(".cell.birth-target")).toHaveLength(0);
    expect([...w.el.querySelectorAll(".cell.dest")].map((c) => c.dataset.cell).sort()).toEqual(["d5", "e6", "e7"]);
    w.click("e5"); // and once more: nothing selected
    expect(w.q(".cell.selected")).toBeNull();
    w.click("e5");
    w.click("e6");
    expect(w.plays()).toEqual(["e5*e6"]);
    w.cleanup();
  });

  it("asks the run's owner for the end to trim", () => {
    const run = ["a5", "b5", "c5", "d5", "e5"];
    const view = view2(
      { S: [...run, "h1"], N: ["i9"] },
      { phase: "trim", trim: { seat: 0, run, ends: ["a5", "e5"] } },
    );
    const w = open([frame(5, 2, view, { kind: "overpopulation" })], ["trim a5", "trim e5"]);
    const ends = [...w.el.querySelectorAll(".cell.trim-end")].map((c) => c.dataset.cell).sort();
    expect(ends).toEqual(["a5", "e5"]);
    w.click("c5");
    expect(w.plays()).toEqual([]);
    w.click("e5");
    expect(w.plays()).toEqual(["trim e5"]);
    w.cleanup();
  });

  it("is not clickable on an earlier frame; stepping back draws that frame from its view", () => {
    const first = view2();
    const second = view2({ S: ["d1", "d2", "e4", "f1", "f2", "f3", "e2"], N: NORTH_H }, { to_move: 1 });
    const frames = [
      frame(0, 0, first),
      frame(1, 0, second, { data: { from: "d3", to: "e4", path: ["d3", "d4", "e4"] } }),
    ];
    const w = open(frames, ["d7-d6"]);
    expect(w.q('[data-cell="e4"] [data-stone]').dataset.stone).toBe("S");
    expect(w.q('[data-cell="d3"]').classList.contains("from")).toBe(true);
    w.q(".tw-prev").click();
    expect(w.q('[data-cell="e4"] [data-stone]')).toBeNull();
    expect(w.q('[data-cell="d3"] [data-stone]').dataset.stone).toBe("S");
    expect(w.q(".move-path")).toBeNull();
    expect(w.q(".slid")).toBeNull();
    w.click("d7");
    w.click("d6");
    expect(w.plays()).toEqual([]);
    w.q(".tw-next").click();
    expect(w.q('[data-cell="e4"] .stone').classList.contains("slid")).toBe(true);
    w.cleanup();
  });

  it("marks the dying stones of a suffocation frame", () => {
    const before = view2({ S: ["a1", "h5"], N: ["a2", "b1"] });
    const after = view2({ S: ["h5"], N: ["a2", "b1"] });
    const frames = [
      frame(0, 0, before),
      frame(1, 0, before, { last: false }),
      frame(1, 1, after, { kind: "suffocation", data: { cells: ["a1"] } }),
    ];
    const w = open(frames, []);
    // Reached by stepping forward from the frame before, the side of the dead stone is known.
    w.q(".tw-prev").click();
    expect(w.q('[data-cell="a1"] [data-stone]').dataset.stone).toBe("S");
    w.q(".tw-next").click();
    const dying = w.q('[data-cell="a1"] .stone.dying');
    expect(dying).not.toBeNull();
    expect(dying.getAttribute("data-dying")).toBe("S");
    expect(w.el.querySelectorAll("svg.mamba-board [data-stone]")).toHaveLength(3);
    w.cleanup();
  });

  it("draws every frame the same however it was reached (no state left over)", () => {
    // A short game's frames of every kind; the widget re-draws only changed cells, so
    // a random walk over them must always show exactly what a fresh drawing shows.
    const v = (stones, extra) => view2(stones, extra);
    const frames = [
      frame(0, 0, v({ S: ["a1", "b1", "e3"], N: ["c2", "e5", "i9"] })),
      frame(1, 0, v({ S: ["a1", "b1", "e4"], N: ["c2", "e5", "i9"] }), { last: false, data: { from: "e3", to: "e4", path: ["e3", "e4"] } }),
      frame(1, 1, v({ S: ["a1", "b1", "e4"], N: ["c2", "e5", "i9"] }, { to_move: 1 }), { kind: "held", data: { cells: ["e5"], holding_run: ["e5"], pulling_run: ["e4"] } }),
      frame(2, 0, v({ S: ["a1", "b1", "e4"], N: ["c1", "e5", "i9"] }, { to_move: 1 }), { last: false, data: { from: "c2", to: "c1", path: ["c2", "c1"] } }),
      frame(2, 1, v({ S: ["a1", "b1", "c1", "e4"], N: ["e5", "i9"] }, { to_move: 1 }), { last: false, kind: "transformation", data: { cells: ["c1"], to: 0, from: [1] } }),
      frame(2, 2, v({ S: ["b1", "c1", "e4"], N: ["e5", "i9"] }, { to_move: 0 }), { kind: "suffocation", data: { cells: ["a1"] } }),
    ];
    const w = open(frames, []);
    // Each fake frame has its own caption, which tells which one is shown.
    const shownFrame = () => frames.find((f) => f.caption === w.q(".tw-caption").textContent);
    // What a drawing says, without the motion (which depends on the way a frame was reached).
    const still = (root) =>
      [...root.querySelectorAll("[data-cell]")]
        .map((n) => {
          const cls = [...n.classList].filter((c) => !["pickable", "focus"].includes(c)).sort().join(".");
          const stone = n.querySelector("[data-stone]");
          const ghost = n.querySelector("[data-dying]");
          return `${n.dataset.cell}:${cls}:${stone ? stone.dataset.stone + stone.dataset.snout : ""}:${ghost ? "x" : ""}`;
        })
        .sort()
        .join(" ");
    let seed = 12345;
    const rand = (n) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const buttons = [".tw-first", ".tw-prev", ".tw-next", ".tw-last"];
    const expected = new Map(
      frames.map((f) => {
        const fresh = document.createElement("div");
        fresh.innerHTML = boardSvg(f.view, frameMarks(f, null, frames.find((g) => g.step === f.step)));
        return [f, still(fresh)];
      }),
    );
    for (let i = 0; i < 40; i++) {
      w.q(buttons[rand(4)]).click();
      expect(still(w.q("svg.mamba-board"))).toBe(expected.get(shownFrame()));
    }
    w.cleanup();
  });

  it("sets the legend in place as legendHtml draws it: a move parses no markup", () => {
    const v = (stones, extra) => view2(stones, extra);
    const frames = [
      frame(0, 0, v({ S: ["a1", "b1", "e3"], N: ["c2", "e5", "i9"] }, { stones: [3, 3] })),
      frame(1, 0, v({ S: ["a1", "b1", "e4"], N: ["c2", "e5", "i9"] }, { stones: [3, 3], to_move: 1 })),
      frame(2, 0, v({ S: ["a1", "b1", "e4"], N: ["c1", "e5"] }, { stones: [3, 2], to_move: 0, phase: "trim" })),
      frame(3, 0, v({ S: ["a1", "b1", "e4"], N: ["e5"] }, { stones: [3, 1], to_move: null, winners: [0], phase: "over" })),
    ];
    const w = open(frames, []);
    const parsed = vi.spyOn(Element.prototype, "innerHTML", "set");
    try {
      const order = [1, 2, 3, 0, 2, 1, 3, 3, 0];
      for (const i of order) {
        w.q(".tw-slider").value = String(i);
        w.q(".tw-slider").dispatchEvent(new Event("input"));
        const fresh = document.createElement("div");
        fresh.innerHTML = legendHtml(frames[i].view, ["South", "North"]);
        expect(w.q(".legend").innerHTML).toBe(fresh.innerHTML);
      }
      // Only the fresh drawings above parsed a legend's markup: the widget set its own in place.
      expect(parsed.mock.calls.filter(([markup]) => String(markup).startsWith('<ul class="seats">'))).toHaveLength(order.length);
    } finally {
      parsed.mockRestore();
    }
    w.cleanup();
  });

  it("does not animate when the animate setting is off", () => {
    const before = view2({ S: ["d3"], N: ["i9"] });
    const after = view2({ S: ["e4"], N: ["i9"] });
    const frames = [frame(0, 0, before), frame(1, 0, after, { data: { from: "d3", to: "e4", path: ["d3", "d4", "e4"] } })];
    const w = open(frames, [], { settings: { animate: false } });
    w.q(".tw-prev").click();
    w.q(".tw-next").click();
    expect(w.q("svg.mamba-board").classList.contains("animate")).toBe(false);
    expect(w.q(".slid")).toBeNull();
    expect(w.q('[data-cell="d3"]').classList.contains("from")).toBe(true);
    w.cleanup();
  });

  it("keeps a frame's drawing (and its animation) when the legal actions arrive", () => {
    const before = view2({ S: ["a1", "h5"], N: ["a2", "b1"] });
    const after = view2({ S: ["h5"], N: ["a2", "b1"] });
    const el = document.createElement("div");
    const model = fakeModel({ cursor: 1, settings: {} });
    vi.useFakeTimers();
    const cleanup = widget.render({ model, el });
    model.deliver({ type: "frames", from: 0, frames: [frame(0, 0, before)] });
    vi.advanceTimersByTime(10_000); // the set-up had its beat: the new frame shows at once
    model.deliver({
      type: "frames",
      from: 1,
      frames: [frame(1, 0, after, { kind: "suffocation", data: { cells: ["a1"] } })],
    });
    const svg = el.querySelector("svg.mamba-board");
    expect(svg.classList.contains("animate")).toBe(true);
    model.deliver({ type: "legal", step: 1, to_move: 0, actions: ["h5-h6"] });
    expect(el.querySelector("svg.mamba-board")).toBe(svg);
    expect(el.querySelector('[data-cell="h5"]').classList.contains("pickable")).toBe(true);
    cleanup();
    vi.useRealTimers();
  });
});

describe("the position editor", () => {
  it("edits cells by cycling and shows the live notation", () => {
    const w = open([frame(0, 0, view2({ S: [], N: [] }))], START_LEGAL);
    w.q(".edit-toggle").click();
    expect(w.q(".editor").hidden).toBe(false);
    expect(w.q("svg.mamba-board").classList.contains("editing")).toBe(true);
    for (const c of ["c3", "d3", "e3"]) w.click(c); // → S
    for (const c of ["c5", "d5", "e5"]) {
      w.click(c);
      w.click(c); // → N
    }
    w.click("a1");
    w.click("a1");
    w.click("a1"); // S → N → empty again
    const input = w.q(".editor .notation");
    expect(input.value).toBe("9/9/9/9/2NNN4/9/2SSS4/9/9 S");
    // Editing plays nothing.
    expect(w.plays()).toEqual([]);
    const side = w.q(".editor .side-to-move");
    side.value = "N";
    side.dispatchEvent(new Event("change", { bubbles: true }));
    expect(input.value).toBe("9/9/9/9/2NNN4/9/2SSS4/9/9 N");
    w.q(".editor .load").click();
    expect(w.model.sent.filter((m) => m.type === "mamba_load_position")).toEqual([
      { type: "mamba_load_position", position: "9/9/9/9/2NNN4/9/2SSS4/9/9 N" },
    ]);
    w.cleanup();
  });

  it("opened inside a cascade, starts with the side whose turn it is", () => {
    // Mid-cascade nobody decides (to_move null): the turn is still North's.
    const w = open([frame(0, 0, view2(undefined, { to_move: null, active: 1 }))], []);
    w.q(".edit-toggle").click();
    expect(w.q(".editor .side-to-move").value).toBe("N");
    expect(w.q(".editor .notation").value).toMatch(/ N$/);
    w.cleanup();
  });

  it("paints with a brush and reads typed notation onto the board", () => {
    const w = open([frame(0, 0, view2())], START_LEGAL);
    w.q(".edit-toggle").click();
    w.q('.palette [data-brush="."]').click();
    w.click("d1");
    expect(w.q('[data-cell="d1"] [data-stone]')).toBeNull();
    const input = w.q(".editor .notation");
    input.value = "9/9/9/9/4N4/9/9/9/9 N";
    input.dispatchEvent(new Event("input", { bubbles: true }));
    expect(w.el.querySelectorAll("svg.mamba-board [data-stone]")).toHaveLength(1);
    expect(w.q('[data-cell="e5"] [data-stone]').dataset.stone).toBe("N");
    w.cleanup();
  });

  it("refuses to send notation it cannot read, and shows the kernel's error", () => {
    const w = open([frame(0, 0, view2())], START_LEGAL);
    w.q(".edit-toggle").click();
    const input = w.q(".editor .notation");
    input.value = "9/9/9 S";
    input.dispatchEvent(new Event("input", { bubbles: true }));
    w.q(".editor .load").click();
    expect(w.model.sent.filter((m) => m.type === "mamba_load_position")).toEqual([]);
    expect(w.q(".editor .status").classList.contains("bad")).toBe(true);
    expect(w.q(".editor .status").textContent).toMatch(/ranks/);
    input.value = "9/9/9/9/9/9/9/9/9 E"; // no East in a 2-player game
    w.q(".editor .load").click();
    expect(w.model.sent.filter((m) => m.type === "mamba_load_position")).toEqual([]);
    input.value = "9/9/9/9/4N4/9/9/9/9 S";
    w.q(".editor .load").click();
    expect(w.model.sent.filter((m) => m.type === "mamba_load_position")).toHaveLength(1);
    w.model.set("error", "South has no stone");
    expect(w.q(".editor .status").textContent).toBe("South has no stone");
    expect(w.q(".editor").hidden).toBe(false);
    w.cleanup();
  });

  it("shows every refusal the kernel answers, and closes on success", () => {
    const w = open([frame(0, 0, view2())], START_LEGAL);
    w.q(".edit-toggle").click();
    const input = w.q(".editor .notation");
    const status = w.q(".editor .status");
    for (let i = 0; i < 2; i++) {
      input.value = "9/9/9/9/9/9/9/9/9 S";
      w.q(".editor .load").click();
      expect(status.textContent).toMatch(/Sent/);
      w.model.deliver({ type: "mamba_position", ok: false, error: "The position was not loaded: no stones" });
      expect(status.textContent).toBe("The position was not loaded: no stones");
      expect(status.classList.contains("bad")).toBe(true);
    }
    input.value = "9/9/9/9/4N4/9/9/9/9 S";
    w.q(".editor .load").click();
    w.model.deliver({ type: "mamba_position", ok: true, position: "9/9/9/9/4N4/9/9/9/9 S" });
    expect(w.q(".editor").hidden).toBe(true);
    expect(w.q(".edit-toggle").getAttribute("aria-pressed")).toBe("false");
    w.cleanup();
  });

  it("leaves edit mode when the loaded position comes back", () => {
    const w = open([frame(0, 0, view2())], START_LEGAL);
    w.q(".edit-toggle").click();
    const input = w.q(".editor .notation");
    input.value = "9/9/9/9/2NNN4/9/2SSS4/9/9 S";
    w.q(".editor .load").click();
    const loaded = view2({ S: ["c3", "d3", "e3"], N: ["c5", "d5", "e5"] }, { position: "9/9/9/9/2NNN4/9/2SSS4/9/9 S" });
    w.model.deliver({ type: "frames", from: 0, frames: [frame(0, 0, loaded)] });
    expect(w.q(".editor").hidden).toBe(true);
    expect(w.q("svg.mamba-board").classList.contains("editing")).toBe(false);
    expect(w.el.querySelectorAll("svg.mamba-board [data-stone]")).toHaveLength(6);
    w.cleanup();
  });
});

describe("cleanup", () => {
  it("removes every listener it added, on the page and on the model", () => {
    const added = new Map();
    const origAdd = EventTarget.prototype.addEventListener;
    const origRemove = EventTarget.prototype.removeEventListener;
    EventTarget.prototype.addEventListener = function (type, fn, opts) {
      added.set(fn, (added.get(fn) || 0) + 1);
      return origAdd.call(this, type, fn, opts);
    };
    EventTarget.prototype.removeEventListener = function (type, fn, opts) {
      if (added.has(fn)) added.set(fn, added.get(fn) - 1);
      return origRemove.call(this, type, fn, opts);
    };
    try {
      const w = open([frame(0, 0, view2())], START_LEGAL);
      w.click("d3");
      w.q(".edit-toggle").click();
      w.click("e5");
      expect(w.model.listenerCount()).toBeGreaterThan(0);
      w.cleanup();
      expect([...added.values()].filter((n) => n !== 0)).toEqual([]);
      expect(w.model.listenerCount()).toBe(0);
      expect(w.el.querySelector(".mamba")).toBeNull();
    } finally {
      EventTarget.prototype.addEventListener = origAdd;
      EventTarget.prototype.removeEventListener = origRemove;
    }
  });

  it("is not offered on a replay or a player's own screen (Python refuses a position there)", () => {
    for (const traits of [{ replay: true }, { lock_seat: true, seat: 0 }]) {
      const w = open([frame(0, 0, view2({ S: [], N: [] }))], START_LEGAL, traits);
      expect(w.q(".edit-toggle").closest("[hidden]")).not.toBeNull();
      w.model.set(Object.keys(traits)[0], false);
      expect(w.q(".edit-toggle").closest("[hidden]")).toBeNull();
      w.cleanup();
    }
  });

  it("mount alone cleans up its own listeners and elements", () => {
    const host = document.createElement("div");
    const model = fakeModel();
    const ctx = { seat: null, seatNames: [], interactive: false, legal: [], play: () => false, send: () => {}, settings: {}, model };
    const board = mount(host, ctx);
    board.update(frame(0, 0, view2()), null, ctx);
    expect(model.listenerCount()).toBeGreaterThan(0);
    board.destroy();
    expect(model.listenerCount()).toBe(0);
    expect(host.children).toHaveLength(0);
  });
});

describe("the seats' box of a narrow table", () => {
  it("the board marks three or four seats itself: the stylesheet has no :has() rule", () => {
    // A :has() rule is tested again on every node built or removed under what it may match,
    // here every cell of the board.
    expect(MAMBA_CSS).not.toMatch(/:has\(/);
    const host = document.createElement("div");
    const ctx = { seat: null, seatNames: [], interactive: false, legal: [], play: () => false, send: () => {}, settings: {}, model: fakeModel() };
    const board = mount(host, ctx);
    board.update(frame(0, 0, view2()), null, ctx);
    expect(host.classList.contains("mamba-many-seats")).toBe(false);
    const four = view2(undefined, { players: 4, seats: ["South", "East", "North", "West"], sides: ["S", "E", "N", "W"], stones: [7, 0, 7, 0] });
    board.update(frame(0, 0, four), null, ctx);
    expect(host.querySelectorAll(".legend .seats > .seat")).toHaveLength(4);
    expect(host.classList.contains("mamba-many-seats")).toBe(true);
    board.destroy();
    expect(host.classList.contains("mamba-many-seats")).toBe(false);
  });
});

describe("last-move marks", () => {
  it("a later sub-step of a step still marks the step's move; a birth's newborn and parent stay marked", () => {
    const move = frame(2, 0, view2({ S: ["a1"], N: ["c1", "e5"] }), { last: false, data: { from: "c2", to: "c1", path: ["c2", "c1"] } });
    const wave = frame(2, 1, view2({ S: ["a1", "c1"], N: ["e5"] }), { kind: "transformation", data: { cells: ["c1"], to: 0, from: [1] } });
    const marks = frameMarks(wave, null, move);
    expect([marks.from, marks.to, marks.path]).toEqual(["c2", "c1", ["c2", "c1"]]);
    expect(marks.slide).toBeNull(); // no motion replayed on a later frame
    // The turned stone carries its own mark in the drawing, distinct from the move's.
    const svg = document.createElement("div");
    svg.innerHTML = boardSvg(wave.view, marks);
    expect(svg.querySelector('[data-cell="c1"] .turned-ring')).not.toBeNull();
    expect(svg.querySelectorAll(".turned-ring").length).toBe(1);
    // Without the step's first frame there is nothing to repeat.
    expect(frameMarks(wave, null).from).toBeNull();

    const birth = frame(3, 0, view2({ S: ["a1", "a2"], N: ["e5"] }), { kind: "birth", last: false, data: { parent: "a1", cell: "a2" } });
    const after = frame(3, 1, view2({ S: ["a1", "a2"], N: [] }), { kind: "suffocation", data: { cells: ["e5"] } });
    const b = frameMarks(after, null, birth);
    expect(b.parentUsed).toBe("a1");
    expect([...b.newborn]).toEqual(["a2"]);
    svg.innerHTML = boardSvg(after.view, b);
    expect(svg.querySelector('[data-cell="a2"] .born-ring')).not.toBeNull();
  });

  it("the ends of a run to trim carry their own mark, apart from the run's ring", () => {
    const run = ["a2", "b2", "c2", "d2", "e2"];
    const f = frame(4, 0, view2({ S: run, N: ["i9"] }, { phase: "trim", trim: { seat: 0, run, ends: ["a2", "e2"] } }), { kind: "overpopulation", data: { cells: run, ends: ["a2", "e2"] } });
    const svg = document.createElement("div");
    svg.innerHTML = boardSvg(f.view, frameMarks(f, null));
    expect(svg.querySelectorAll(".run-ring").length).toBe(5);
    expect([...svg.querySelectorAll(".end-mark")].map((n) => n.closest("[data-cell]").dataset.cell).sort()).toEqual(["a2", "e2"]);
  });
});
