// The Mamba board as pure functions: geometry, notation helpers, and view → SVG markup.
// Nothing here touches the DOM or a model, so the drawing can be tested (and reused by a
// standalone replay) without a widget.

export const FILES = "abcdefghi";
export const SIZE = 9;
// Canonical side order: the order the position editor cycles through.
export const SIDE_ORDER = ["S", "N", "E", "W"];
// A stone faces its owner: the snout points toward the owner's edge of the board.
export const SNOUT = { S: "down", N: "up", E: "right", W: "left" };
export const SIDE_WORD = { S: "South", N: "North", E: "East", W: "West" };
const ARROW = { S: "▼", N: "▲", E: "▶", W: "◀" };
// Rotation of a stone drawn with its snout pointing down (the South stone).
const ANGLE = { S: 0, W: 90, N: 180, E: -90 };

export const PITCH = 40;
export const MARGIN = 26;
export const HOLE_R = 15;
export const STONE_R = 12;
export const VIEW_SIZE = 2 * MARGIN + SIZE * PITCH;

// ---------------------------------------------------------------------------------------
// cells

const CELL_RE = /^([a-i])([1-9])$/;

/** Index in the observation's 81-char board: (rank-1)*9 + file index; -1 if not a cell. */
export function cellIndex(name) {
  const m = CELL_RE.exec(String(name));
  if (!m) return -1;
  return (Number(m[2]) - 1) * SIZE + FILES.indexOf(m[1]);
}

export function cellName(index) {
  return FILES[index % SIZE] + (Math.floor(index / SIZE) + 1);
}

export const ALL_CELLS = Array.from({ length: SIZE * SIZE }, (_, i) => cellName(i));

/** Centre of a cell in SVG units; rank 9 is drawn at the top. */
export function cellCenter(name) {
  const i = cellIndex(name);
  const file = i % SIZE;
  const rank = Math.floor(i / SIZE) + 1;
  return {
    x: MARGIN + PITCH / 2 + file * PITCH,
    y: MARGIN + PITCH / 2 + (SIZE - rank) * PITCH,
  };
}

/** Cell one step from `name` in the arrow direction ("up", "down", "left", "right"), or null. */
export function stepCell(name, direction) {
  const i = cellIndex(name);
  if (i < 0) return null;
  const file = i % SIZE;
  const rank = Math.floor(i / SIZE);
  const d = { up: [0, 1], down: [0, -1], left: [-1, 0], right: [1, 0] }[direction];
  if (!d) return null;
  const f = file + d[0];
  const r = rank + d[1];
  if (f < 0 || f >= SIZE || r < 0 || r >= SIZE) return null;
  return cellName(r * SIZE + f);
}

// ---------------------------------------------------------------------------------------
// boards and notation

/** The observation's board string → array of 81 chars ('.' or a side letter). */
export function parseBoard(board) {
  if (typeof board !== "string" || board.length !== SIZE * SIZE) {
    throw new Error(`a Mamba board has ${SIZE * SIZE} cells, got ${JSON.stringify(board)}`);
  }
  return board.split("");
}

/** The stones of a board: [{cell, side}] in board order (a1, b1, … i9). */
export function stonesOf(board) {
  const cells = Array.isArray(board) ? board : parseBoard(board);
  const out = [];
  cells.forEach((c, i) => {
    if (c !== ".") out.push({ cell: cellName(i), side: c });
  });
  return out;
}

/** Board (81 chars or array) + side to move (+ birth parents) → position notation. */
export function boardToPosition(board, side, parents) {
  const cells = Array.isArray(board) ? board : parseBoard(board);
  const ranks = [];
  for (let rank = SIZE; rank >= 1; rank--) {
    let text = "";
    let empty = 0;
    for (let file = 0; file < SIZE; file++) {
      const c = cells[(rank - 1) * SIZE + file];
      if (c === ".") {
        empty += 1;
      } else {
        if (empty) text += empty;
        empty = 0;
        text += c;
      }
    }
    if (empty) text += empty;
    ranks.push(text);
  }
  let out = `${ranks.join("/")} ${side}`;
  if (parents !== undefined && parents !== null) {
    out += " " + (parents.length ? parents.join(",") : "-");
  }
  return out;
}

/**
 * Position notation → {board: 81 chars array, side, rest}. Throws an Error naming what is
 * wrong. Only the board and the side are read here; anything after them (parents, a pending
 * trim) is kept in `rest` for the engine, which has the final word on every position.
 */
export function parsePosition(text) {
  const parts = String(text).trim().split(/\s+/);
  if (parts.length < 2 || !parts[0]) throw new Error("a position is the board, a space and the side to move");
  const ranks = parts[0].split("/");
  if (ranks.length !== SIZE) throw new Error(`a position has ${SIZE} ranks separated by '/', got ${ranks.length}`);
  const board = new Array(SIZE * SIZE).fill(".");
  ranks.forEach((rankText, k) => {
    const rank = SIZE - k;
    let file = 0;
    for (const ch of rankText) {
      if (/[1-9]/.test(ch)) {
        file += Number(ch);
      } else if (SIDE_ORDER.includes(ch)) {
        if (file < SIZE) board[(rank - 1) * SIZE + file] = ch;
        file += 1;
      } else {
        throw new Error(`rank ${rank}: ${JSON.stringify(ch)} is neither a digit nor a side (S, N, E, W)`);
      }
    }
    if (file !== SIZE) throw new Error(`rank ${rank} has ${file} cells, not ${SIZE}`);
  });
  const side = parts[1];
  if (!SIDE_ORDER.includes(side)) throw new Error(`the side to move must be S, N, E or W, got ${JSON.stringify(side)}`);
  return { board, side, rest: parts.slice(2).join(" ") };
}

/** The next content of a cell in the editor: empty → each side in `sides` → empty. */
export function nextInCycle(content, sides, backwards = false) {
  const cycle = [".", ...SIDE_ORDER.filter((s) => sides.includes(s))];
  const i = Math.max(0, cycle.indexOf(content));
  const step = backwards ? cycle.length - 1 : 1;
  return cycle[(i + step) % cycle.length];
}

/**
 * Legal notations → what the board may offer: moves (from → [to]), births (parent →
 * [cell]) and trims (cells at a run's end). Unknown strings are ignored.
 */
export function parseLegal(legal) {
  const moves = new Map();
  const births = new Map();
  const trims = new Set();
  const add = (map, key, value) => {
    if (!map.has(key)) map.set(key, []);
    map.get(key).push(value);
  };
  for (const text of legal || []) {
    let m;
    if ((m = /^([a-i][1-9])-([a-i][1-9])$/.exec(text))) add(moves, m[1], m[2]);
    else if ((m = /^([a-i][1-9])\*([a-i][1-9])$/.exec(text))) add(births, m[1], m[2]);
    else if ((m = /^trim ([a-i][1-9])$/.exec(text))) trims.add(m[1]);
  }
  return { moves, births, trims };
}

// ---------------------------------------------------------------------------------------
// what a frame shows

/** True when `prev` is the frame shown just before `frame` in playing order. */
export function isSuccessor(frame, prev) {
  if (!prev || !frame) return false;
  if (prev.step === frame.step) return prev.sub === frame.sub - 1;
  return frame.sub === 0 && prev.step === frame.step - 1 && prev.last !== false;
}

function sideOfSeat(view, seat) {
  if (typeof seat === "string" && SIDE_ORDER.includes(seat)) return seat;
  if (Number.isInteger(seat) && view.sides && view.sides[seat]) return view.sides[seat];
  return null;
}

/** The seat or side a cell's stone had, when an event's data says so (by cell or in order). */
function seatAt(data, cell, i) {
  const sides = data.sides ?? data.seats;
  if (Array.isArray(sides)) return sides[i];
  if (sides && typeof sides === "object") return sides[cell];
  return null;
}

function cellsOf(value) {
  if (!Array.isArray(value)) return [];
  return value.filter((c) => cellIndex(c) >= 0);
}

export function emptyMarks() {
  return {
    animate: false,
    from: null,
    to: null,
    path: [],
    slide: null,
    dying: new Map(), // cell → side (or null when unknown)
    newborn: new Set(),
    parentUsed: null,
    turned: new Map(), // cell → side it had before
    held: new Set(),
    tug: new Set(), // the runs pulling on a held stone
    run: new Set(),
    ends: new Set(),
    parents: new Set(),
    selected: null,
    dests: new Set(),
    births: new Set(),
    trimEnds: new Set(),
    pickable: new Set(), // stones the player may pick up (to move or to give birth)
    focus: null,
    cycle: false,
  };
}

/**
 * The marks of a frame: what its event changed (from `frame.kind`/`frame.data`) and what is
 * pending in its view (birth parents, a run to trim). Animations are asked for only when
 * `prev` is the frame just before; any other jump draws the frame statically from its view.
 */
export function frameMarks(frame, prev, first = null) {
  const marks = emptyMarks();
  if (!frame || !frame.view) return marks;
  const view = frame.view;
  const data = frame.data || {};
  const animate = isSuccessor(frame, prev) && prev.view && typeof prev.view.board === "string";
  marks.animate = Boolean(animate);
  const before = animate ? parseBoard(prev.view.board) : null;
  const after = parseBoard(view.board);
  // The side a stone had before this frame: from the previous board when it is the frame
  // just before, else from the event's own data when it says so.
  const priorSide = (cell, fallback) => {
    if (before) {
      const c = before[cellIndex(cell)];
      if (c && c !== ".") return c;
    }
    return fallback || null;
  };
  switch (frame.kind) {
    case "move": {
      const from = cellIndex(data.from) >= 0 ? data.from : null;
      const to = cellIndex(data.to) >= 0 ? data.to : null;
      marks.from = from;
      marks.to = to;
      let path = cellsOf(data.path);
      if (from && path[0] !== from) path = [from, ...path];
      if (to && path[path.length - 1] !== to) path = [...path, to];
      marks.path = path;
      if (animate && from && to) marks.slide = { from, to, path };
      break;
    }
    case "birth": {
      if (cellIndex(data.parent) >= 0) marks.parentUsed = data.parent;
      if (cellIndex(data.cell) >= 0) marks.newborn.add(data.cell);
      break;
    }
    case "suffocation": {
      const cells = cellsOf(data.cells);
      cells.forEach((cell, i) => marks.dying.set(cell, priorSide(cell, sideOfSeat(view, seatAt(data, cell, i)))));
      break;
    }
    case "overpopulation": {
      // Its cells are the overpopulated run; the owner of the choice then trims one end.
      cellsOf(data.run || data.cells).forEach((c) => marks.run.add(c));
      cellsOf(data.ends).forEach((c) => marks.ends.add(c));
      break;
    }
    case "trim": {
      const run = cellsOf(data.run);
      run.forEach((c) => marks.run.add(c));
      // The rest of the run is still on the board and tells whose stones were removed.
      const survivor = run.map((c) => after[cellIndex(c)]).find((c) => c && c !== ".");
      for (const cell of cellsOf(data.cells)) marks.dying.set(cell, priorSide(cell, survivor || null));
      break;
    }
    case "transformation": {
      cellsOf(data.cells).forEach((cell, i) => {
        const from = Array.isArray(data.from) ? data.from[i] : data.from;
        const old = priorSide(cell, sideOfSeat(view, from));
        if (old !== after[cellIndex(cell)]) marks.turned.set(cell, old);
      });
      break;
    }
    case "held": {
      cellsOf(data.cells).forEach((c) => marks.held.add(c));
      // The two runs pulling on the held stone: the tug of war, drawn on the board.
      cellsOf(data.holding_run).forEach((c) => marks.tug.add(c));
      cellsOf(data.pulling_run).forEach((c) => marks.tug.add(c));
      break;
    }
    case "cycle": {
      marks.cycle = true;
      break;
    }
    default:
      break;
  }
  // A later sub-step of the step (a wave of the cascade, its end) still shows what was played,
  // from the step's first frame: the move's path, or the birth's parent and newborn.
  if (first && first !== frame && first.step === frame.step && first.data) {
    const played = first.data;
    if (first.kind === "move" && cellIndex(played.from) >= 0 && cellIndex(played.to) >= 0) {
      marks.from = played.from;
      marks.to = played.to;
      let path = cellsOf(played.path);
      if (path[0] !== played.from) path = [played.from, ...path];
      if (path[path.length - 1] !== played.to) path = [...path, played.to];
      marks.path = path;
    } else if (first.kind === "birth") {
      if (cellIndex(played.parent) >= 0) marks.parentUsed = played.parent;
      if (cellIndex(played.cell) >= 0 && after[cellIndex(played.cell)] !== ".") marks.newborn.add(played.cell);
    }
  }
  for (const p of cellsOf(view.parents)) marks.parents.add(p);
  if (view.phase === "trim" && view.trim) {
    cellsOf(view.trim.run).forEach((c) => marks.run.add(c));
    cellsOf(view.trim.ends).forEach((c) => marks.ends.add(c));
  }
  return marks;
}

// ---------------------------------------------------------------------------------------
// SVG

function esc(text) {
  return String(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

function turnAngles(fromSide, toSide) {
  const to = ANGLE[toSide] ?? 0;
  let from = ANGLE[fromSide] ?? to;
  // Turn the short way round.
  while (from - to > 180) from -= 360;
  while (to - from > 180) from += 360;
  return { from, to };
}

/**
 * One stone centred on (0, 0): a disc with a snout (and two eyes) pointing toward its
 * owner's side. `extra` adds classes; `attrs` adds attributes (already escaped).
 */
export function stoneSvg(side, { extra = "", attrs = "", fromSide = null } = {}) {
  const { from, to } = turnAngles(fromSide || side, side);
  const style = fromSide ? ` style="--from:${from}deg;--to:${to}deg"` : "";
  return (
    `<g class="stone side-${esc(side)}${extra ? " " + extra : ""}"${attrs}>` +
    `<g class="stone-body" transform="rotate(${to})"${style}>` +
    `<path class="snout" d="M -7 ${STONE_R - 4} L 0 ${STONE_R + 7} L 7 ${STONE_R - 4} Z"/>` +
    `<circle class="disc" r="${STONE_R}"/>` +
    `<circle class="eye" cx="-4" cy="${STONE_R - 6}" r="1.6"/>` +
    `<circle class="eye" cx="4" cy="${STONE_R - 6}" r="1.6"/>` +
    `</g></g>`
  );
}

export function cellLabel(cell, content, classes) {
  const who = content === "." ? "empty" : `${SIDE_WORD[content] || content} stone`;
  const extra = [];
  if (classes.includes("dest")) extra.push("move here");
  if (classes.includes("birth-target")) extra.push("birth here");
  if (classes.includes("trim-end")) extra.push("trim from here");
  if (classes.includes("parent")) extra.push("parent");
  if (classes.includes("selected")) extra.push("selected");
  return [cell, who, ...extra].join(", ");
}

/** The mark of a choice on offer in a cell: a dot (move), a plus (birth), a cross (trim). */
export function offerMarkSvg(kind) {
  if (kind === "dest") return `<circle class="offer dot" r="5"/>`;
  if (kind === "birth-target") return `<path class="offer plus" d="M -6 0 H 6 M 0 -6 V 6"/>`;
  if (kind === "trim-end") return `<path class="offer scissors" d="M -8 -8 L 8 8 M 8 -8 L -8 8"/>`;
  return "";
}

/** One cell (a `<g data-cell>` centred on it) with its stone, if any, and its marks. */
export function cellSvg(cell, content, marks = emptyMarks()) {
  const { x, y } = cellCenter(cell);
  const c = ["cell"];
  if (marks.selected === cell) c.push("selected");
  if (marks.dests.has(cell)) c.push("dest");
  if (marks.births.has(cell)) c.push("birth-target");
  if (marks.trimEnds.has(cell)) c.push("trim-end");
  if (marks.parents.has(cell)) c.push("parent");
  if (marks.run.has(cell)) c.push("run");
  if (marks.ends.has(cell)) c.push("end");
  if (marks.from === cell) c.push("from");
  if (marks.to === cell) c.push("to");
  else if (marks.path.includes(cell) && marks.from !== cell) c.push("via");
  if (marks.parentUsed === cell) c.push("parent-used");
  if (marks.held.has(cell)) c.push("held");
  if (marks.pickable.has(cell)) c.push("pickable");
  if (marks.focus === cell) c.push("focus");
  const offer = ["dest", "birth-target", "trim-end"].find((k) => c.includes(k));
  if (offer) c.push("offered");
  const g = [];
  g.push(
    `<g class="${c.join(" ")}" data-cell="${cell}" transform="translate(${x},${y})" role="button" aria-label="${esc(cellLabel(cell, content, c))}">`,
  );
  g.push(`<circle class="hole" r="${HOLE_R}"/>`);
  if (marks.parents.has(cell)) g.push(`<circle class="parent-ring" r="${HOLE_R + 3.5}"/>`);
  if (marks.run.has(cell)) g.push(`<circle class="run-ring" r="${HOLE_R + 2}"/>`);
  else if (marks.tug.has(cell)) g.push(`<circle class="tug-ring" r="${HOLE_R + 2}"/>`);
  // What this step did, in the last-move colour: a stone born, a stone turned.
  if (marks.newborn.has(cell) && content !== ".") g.push(`<circle class="born-ring" r="${HOLE_R + 1}"/>`);
  if (marks.turned.has(cell) && content !== ".") g.push(`<circle class="turned-ring" r="${HOLE_R + 1}"/>`);
  if (content !== ".") {
    const extra = [];
    let attrs = ` data-stone="${esc(content)}" data-snout="${SNOUT[content] || ""}"`;
    let fromSide = null;
    if (marks.newborn.has(cell)) extra.push("newborn");
    if (marks.turned.has(cell)) {
      extra.push("turned");
      fromSide = marks.turned.get(cell);
      if (fromSide) attrs += ` data-turned-from="${esc(fromSide)}"`;
    }
    if (marks.slide && marks.slide.to === cell) {
      const a = cellCenter(marks.slide.from);
      extra.push("slid");
      attrs += ` style="--dx:${a.x - x}px;--dy:${a.y - y}px"`;
    }
    g.push(stoneSvg(content, { extra: extra.join(" "), attrs, fromSide }));
  } else if (marks.dying.has(cell)) {
    // A stone that this wave removed: drawn as a ghost that fades (it is no longer in the view).
    const side = marks.dying.get(cell);
    if (side) g.push(stoneSvg(side, { extra: "dying", attrs: ` data-dying="${esc(side)}"` }));
    else g.push(`<circle class="stone dying unknown" data-dying="" r="${STONE_R}"/>`);
  }
  if (marks.dying.has(cell)) g.push(`<path class="death-mark" d="M -7 -7 L 7 7 M 7 -7 L -7 7"/>`);
  if (marks.held.has(cell)) {
    // A padlock: the tug of war keeps this stone where it is.
    g.push(
      `<g class="held-mark" transform="translate(${HOLE_R - 3},${-HOLE_R + 3})"><path class="shackle" d="M -3 -1 V -4 A 3 3 0 0 1 3 -4 V -1"/><rect x="-4.5" y="-1.5" width="9" height="7" rx="1.5"/></g>`,
    );
  }
  // The ends that may be trimmed: scissors over the run's two ends, whoever views it.
  if (marks.ends.has(cell) && !offer) g.push(`<path class="end-mark" d="M -7 -7 L 7 7 M 7 -7 L -7 7"/>`);
  if (offer) g.push(offerMarkSvg(offer));
  g.push(`</g>`);
  return g.join("");
}

/** The cells `marks` names (a selection, a move's path, a ring, a ghost, an offer…): every other
 * cell is drawn by `cellSvg` from its content alone, as with no marks at all. */
export function markedCells(marks) {
  const cells = new Set();
  const add = (v) => {
    if (typeof v === "string") cells.add(v);
  };
  for (const value of Object.values(marks)) {
    if (value instanceof Set || Array.isArray(value)) for (const v of value) add(v);
    else if (value instanceof Map) for (const k of value.keys()) add(k);
    else if (value && typeof value === "object") {
      for (const v of Object.values(value)) {
        add(v);
        if (Array.isArray(v)) v.forEach(add);
      }
    } else add(value);
  }
  return cells;
}

/** The classes of the board's <svg>: whether this drawing animates, edits, stopped a cycle. */
export function boardClass(marks, editing = false) {
  const cls = ["mamba-board"];
  if (marks.animate) cls.push("animate");
  if (editing) cls.push("editing");
  if (marks.cycle) cls.push("cycle");
  return cls.join(" ");
}

/** The last move's path (drawn in the alleys, under the stones), or "" when there is none. */
export function movePathSvg(marks) {
  if (!marks.path || marks.path.length < 2) return "";
  const pts = marks.path.map((c) => cellCenter(c)).map((p) => `${p.x},${p.y}`).join(" ");
  return `<polyline class="move-path" points="${pts}"/>`;
}

/**
 * The board of `view` (an observation, or any object with an 81-char `board`) as SVG
 * markup, with `marks` (see `frameMarks`, plus selection and offered choices) drawn on it.
 * Cells are `<g data-cell="e5">`; a stone is a `<g data-stone="S">` inside its cell.
 */
export function boardSvg(view, marks = emptyMarks(), { title = "Mamba board", editing = false } = {}) {
  const cells = parseBoard(view.board);
  const out = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="${boardClass(marks, editing)}" viewBox="0 0 ${VIEW_SIZE} ${VIEW_SIZE}" role="img" aria-label="${esc(title)}">`,
  );
  out.push(
    `<rect class="frame" x="3" y="3" width="${VIEW_SIZE - 6}" height="${VIEW_SIZE - 6}" rx="14"/>`,
    `<rect class="field" x="${MARGIN - 4}" y="${MARGIN - 4}" width="${SIZE * PITCH + 8}" height="${SIZE * PITCH + 8}" rx="10"/>`,
  );
  // Coordinates on all four sides, as on a chess board.
  out.push(`<g class="coords" aria-hidden="true">`);
  for (let f = 0; f < SIZE; f++) {
    const x = MARGIN + PITCH / 2 + f * PITCH;
    out.push(`<text x="${x}" y="${MARGIN - 9}">${FILES[f]}</text>`);
    out.push(`<text x="${x}" y="${VIEW_SIZE - MARGIN + 15}">${FILES[f]}</text>`);
  }
  for (let r = 1; r <= SIZE; r++) {
    const y = MARGIN + PITCH / 2 + (SIZE - r) * PITCH + 4;
    out.push(`<text x="${MARGIN / 2 - 1}" y="${y}">${r}</text>`);
    out.push(`<text x="${VIEW_SIZE - MARGIN / 2 + 1}" y="${y}">${r}</text>`);
  }
  out.push(`</g>`);
  // Alleys: a groove between each pair of orthogonal neighbours (one path: 144 segments).
  const alleys = [];
  for (let i = 0; i < SIZE * SIZE; i++) {
    const a = cellCenter(cellName(i));
    for (const j of [i % SIZE < SIZE - 1 ? i + 1 : -1, i + SIZE < SIZE * SIZE ? i + SIZE : -1]) {
      if (j < 0) continue;
      const b = cellCenter(cellName(j));
      alleys.push(`M${a.x} ${a.y}L${b.x} ${b.y}`);
    }
  }
  out.push(`<path class="alleys" aria-hidden="true" d="${alleys.join("")}"/>`);
  out.push(movePathSvg(marks));
  const groups = [];
  let onTop = null;
  for (let i = 0; i < SIZE * SIZE; i++) {
    const cell = cellName(i);
    groups.push(cellSvg(cell, cells[i], marks));
    if (marks.slide && marks.slide.to === cell && cells[i] !== ".") onTop = i;
  }
  // A sliding stone passes over other cells, so its cell is drawn last.
  if (onTop !== null) groups.push(groups.splice(onTop, 1)[0]);
  out.push(`<g class="cells">${groups.join("")}</g>`);
  out.push(`</svg>`);
  return out.join("");
}

// ---------------------------------------------------------------------------------------
// legend

/** A small stone (for the legend) as a standalone SVG. */
export function miniStoneSvg(side) {
  const s = STONE_R + 7;
  return `<svg class="mini-stone" viewBox="${-s} ${-s} ${2 * s} ${2 * s}" aria-hidden="true">${stoneSvg(side)}</svg>`;
}

/**
 * The legend: one row per seat (colour, snout direction, stone count, whose turn), the goal,
 * and the winners once the game is over.
 */
export function legendHtml(view, seatNames) {
  const names = seatNames && seatNames.length ? seatNames : view.seats || [];
  const sides = view.sides || [];
  const rows = sides.map((side, seat) => {
    const name = names[seat] ?? view.seats?.[seat] ?? SIDE_WORD[side];
    const count = view.stones ? view.stones[seat] : "";
    const turn = view.to_move === seat;
    const won = (view.winners || []).includes(seat);
    const cls = ["seat", `side-${side}`];
    if (turn) cls.push("to-move");
    if (won) cls.push("winner");
    const badge = turn ? `<span class="turn">${view.phase === "trim" ? "to trim" : "to move"}</span>` : "";
    const crown = won ? `<span class="won">wins</span>` : "";
    return (
      `<li class="${cls.join(" ")}" data-key="${seat}:${esc(side)}" data-seat="${seat}" data-side="${esc(side)}">` +
      miniStoneSvg(side) +
      `<span class="name">${esc(name)}</span>` +
      `<span class="dir" title="snout points ${SNOUT[side]}">${ARROW[side] || ""}</span>` +
      `<span class="count" title="stones on the board">${esc(count)}</span>` +
      badge +
      crown +
      `</li>`
    );
  });
  const goal =
    view.goal !== undefined && view.goal !== null
      ? `<div class="goal">Goal: bring an opponent down to ${esc(view.goal)} stones.</div>`
      : "";
  return `<ul class="seats">${rows.join("")}</ul>${goal}`;
}

// ---------------------------------------------------------------------------------------
// styles (themed with JupyterLab variables, with fallbacks for a page without them)

export const MAMBA_CSS = `
/* The table's box fits the board (460 px at most, square, and its focus ring) with the seats
   beside it: no empty band under the board, one height for every frame. A narrower table (a
   notebook beside its file browser) draws the board smaller, the seats keeping 180 px, and the
   box follows it: its height is read from the width of the table's column. */
.tw-root.tw-mamba .tw-main { container-type: inline-size; }
.tw-root.tw-mamba { --mamba-size: max(260px, min(460px, 100cqi - 192px)); --tw-table-height: calc(var(--mamba-size) + 4px); }
.mamba {
  --mamba-S: var(--mamba-color-S, #d0443a);
  --mamba-N: var(--mamba-color-N, #2f6fc0);
  --mamba-E: var(--mamba-color-E, #2a9560);
  --mamba-W: var(--mamba-color-W, #d49a12);
  /* The timeline's --tw-* colours follow JupyterLab's theme (and the system's light/dark
     preference in a standalone replay); the --jp-* fallbacks serve a page without them. */
  --mamba-ink: var(--tw-fg, var(--jp-ui-font-color1, #222));
  --mamba-ink2: var(--tw-fg2, var(--jp-ui-font-color2, #555));
  --mamba-bg: var(--tw-bg, var(--jp-layout-color1, #fff));
  --mamba-board: var(--mamba-board-color, var(--tw-bg2, var(--jp-layout-color2, #ece3cf)));
  --mamba-hole: var(--tw-bg, var(--jp-layout-color1, #fbf8f1));
  --mamba-line: var(--tw-border, var(--jp-border-color1, #a99c80));
  --mamba-accent: var(--tw-brand, var(--jp-brand-color1, #1976d2));
  /* Colour roles, none of them a side's colour: the choices on offer (a violet), what the last
     step did (the ink, with shapes), what the rules hold pending (the warning orange). */
  --mamba-choice: var(--mamba-color-choice, color-mix(in srgb, #8a2be2 70%, var(--mamba-ink)));
  --mamba-last: var(--mamba-ink);
  --mamba-warn: var(--jp-warn-color1, #e65100);
  --mamba-error: var(--tw-error-fg, var(--jp-error-color1, #c62828));
  color: var(--mamba-ink);
  font-family: var(--jp-ui-font-family, system-ui, sans-serif);
  font-size: var(--jp-ui-font-size1, 13px);
  display: flex; flex-wrap: nowrap; gap: 12px; align-items: flex-start;
}
.mamba .mamba-main { flex: none; width: var(--mamba-size, 460px); }
.mamba .mamba-side { flex: 1 1 200px; min-width: 180px; display: flex; flex-direction: column; gap: 8px; }
/* A narrow table (a notebook in a side panel): the board takes the table's width and the seats,
   the goal and the hint stand under it in a box of their own height, which scrolls (the
   editor's longer column too): the table keeps one height. */
@container tw-main (max-width: 539px) {
  .tw-root.tw-mamba .tw-board { --mamba-size: min(460px, 100cqi); --mamba-side-height: 150px;
    --tw-table-height: calc(var(--mamba-size) + 12px + var(--mamba-side-height)); }
  /* Three or four seats (a game's count, so one height still): a line more each. The board
     marks them (mamba-many-seats): a rule that looked into the legend for a third seat would be
     tested again on every cell drawn. */
  .tw-root.tw-mamba .tw-board.mamba-many-seats { --mamba-side-height: 226px; }
  .mamba { flex-direction: column; align-items: center; }
  .mamba .mamba-side { flex: none; width: 100%; min-width: 0; height: var(--mamba-side-height); overflow-y: auto; }
}
.mamba .board-host { outline: none; border-radius: 14px; }
.mamba .board-host:focus-visible { box-shadow: 0 0 0 2px var(--mamba-accent); }
.mamba svg.mamba-board { width: 100%; height: auto; display: block; user-select: none; }
.mamba-board .frame { fill: var(--mamba-board); stroke: var(--mamba-line); stroke-width: 2; }
.mamba-board .field { fill: color-mix(in srgb, var(--mamba-board) 88%, var(--mamba-ink)); }
.mamba-board .coords text { fill: var(--mamba-ink2); font-size: 11px; text-anchor: middle; font-weight: 600; }
.mamba-board .alleys { fill: none; stroke: var(--mamba-line); stroke-width: 7; stroke-linecap: round; }
.mamba-board .hole { fill: var(--mamba-hole); stroke: var(--mamba-line); stroke-width: 1.5; }
.mamba-board .cell { cursor: default; }
.mamba-board .cell.offered, .mamba-board .cell.pickable, .mamba-board.editing .cell { cursor: pointer; }
.mamba-board .cell.pickable:hover .hole, .mamba-board .cell.offered:hover .hole, .mamba-board.editing .cell:hover .hole { stroke: var(--mamba-choice); stroke-width: 3; }
.mamba-board .stone .disc, .mamba-board .stone .snout { stroke: var(--mamba-ink); stroke-width: 1.2; }
.mamba-board .stone .eye { fill: var(--mamba-ink); }
.mamba .side-S .disc, .mamba .side-S .snout { fill: var(--mamba-S); }
.mamba .side-N .disc, .mamba .side-N .snout { fill: var(--mamba-N); }
.mamba .side-E .disc, .mamba .side-E .snout { fill: var(--mamba-E); }
.mamba .side-W .disc, .mamba .side-W .snout { fill: var(--mamba-W); }
.mamba-board .parent-ring { fill: none; stroke: var(--mamba-ink2); stroke-width: 2; stroke-dasharray: 2 3; }
.mamba-board .born-ring, .mamba-board .turned-ring { fill: none; stroke: var(--mamba-last); stroke-width: 2.5; }
.mamba-board .turned-ring { stroke-dasharray: 6 3; }
.mamba-board .end-mark { stroke: var(--mamba-warn); stroke-width: 3; stroke-linecap: round; pointer-events: none; }
.mamba-board .run-ring { fill: none; stroke: var(--mamba-warn); stroke-width: 3; }
.mamba-board .tug-ring { fill: none; stroke: var(--mamba-warn); stroke-width: 2; stroke-dasharray: 4 2; }
.mamba-board .cell.end .hole { stroke: var(--mamba-warn); stroke-width: 3; stroke-dasharray: 4 3; }
.mamba-board .cell.selected .hole { stroke: var(--mamba-choice); stroke-width: 4; }
.mamba-board .cell.dest .hole, .mamba-board .cell.birth-target .hole { stroke: var(--mamba-choice); stroke-width: 2.5; }
.mamba-board .cell .dot { fill: var(--mamba-choice); opacity: 0.85; pointer-events: none; }
.mamba-board .cell .plus { stroke: var(--mamba-choice); stroke-width: 3; stroke-linecap: round; pointer-events: none; }
.mamba-board .cell .scissors { stroke: var(--mamba-choice); stroke-width: 3; stroke-linecap: round; pointer-events: none; }
.mamba-board .cell.dest .stone, .mamba-board .cell.trim-end .stone { opacity: 0.8; }
.mamba-board .cell.via .hole { fill: color-mix(in srgb, var(--mamba-last) 12%, var(--mamba-hole)); }
.mamba-board .cell.from .hole { fill: color-mix(in srgb, var(--mamba-last) 22%, var(--mamba-hole)); stroke: var(--mamba-last); stroke-width: 2; stroke-dasharray: 3 2; }
.mamba-board .cell.to .hole { stroke: var(--mamba-last); stroke-width: 3; }
.mamba-board .cell.parent-used .hole { stroke: var(--mamba-last); stroke-width: 3; stroke-dasharray: 2 2; }
.mamba-board .cell.focus .hole { stroke: var(--mamba-ink); stroke-width: 2.5; stroke-dasharray: 4 2; }
.mamba-board .move-path { fill: none; stroke: var(--mamba-last); stroke-width: 4; stroke-linecap: round; stroke-linejoin: round; opacity: 0.45; }
.mamba-board .death-mark { stroke: var(--mamba-last); stroke-width: 2.5; stroke-linecap: round; opacity: 0.8; pointer-events: none; }
.mamba-board .stone.dying { opacity: 0.25; }
.mamba-board .stone.dying.unknown { fill: none; stroke: var(--mamba-ink2); stroke-dasharray: 3 2; }
.mamba-board .held-mark rect { fill: var(--mamba-warn); stroke: var(--mamba-ink); stroke-width: 0.8; }
.mamba-board .held-mark .shackle { fill: none; stroke: var(--mamba-ink); stroke-width: 1.6; }
.mamba-board .cell.held .hole { stroke: var(--mamba-warn); stroke-width: 3; }
.mamba-board.cycle .field { stroke: var(--mamba-warn); stroke-width: 3; }
.mamba-board.editing .field { stroke: var(--mamba-choice); stroke-width: 3; stroke-dasharray: 8 4; }
/* The cascade, frame by frame: these run only when the frame follows the one shown before. */
.mamba-board.animate .stone.dying { animation: mamba-fade 0.7s ease-in forwards; }
.mamba-board.animate .stone.turned .stone-body { animation: mamba-turn 0.6s ease-in-out both; }
.mamba-board.animate .stone.slid { animation: mamba-slide 0.45s ease-out both; }
.mamba-board.animate .stone.newborn { animation: mamba-grow 0.45s ease-out both; }
@keyframes mamba-fade { from { opacity: 1; } to { opacity: 0.15; } }
@keyframes mamba-turn { from { transform: rotate(var(--from)); } to { transform: rotate(var(--to)); } }
@keyframes mamba-slide { from { transform: translate(var(--dx), var(--dy)); } to { transform: translate(0, 0); } }
@keyframes mamba-grow { from { transform: scale(0.1); opacity: 0; } to { transform: scale(1); opacity: 1; } }
@media (prefers-reduced-motion: reduce) {
  .mamba-board.animate .stone { animation-duration: 0.01s !important; }
  .mamba-board.animate .stone .stone-body { animation-duration: 0.01s !important; }
}
.mamba .seats { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 4px; }
.mamba .seats .seat { display: flex; align-items: center; gap: 6px; padding: 2px 6px; border-radius: 6px; border: 1px solid transparent; }
.mamba .seats .seat.to-move { border-color: var(--mamba-ink); background: color-mix(in srgb, var(--mamba-ink) 8%, transparent); }
.mamba .seats .seat.winner { font-weight: 700; }
.mamba .seats .mini-stone { width: 24px; height: 24px; flex: none; }
.mamba .seats .name { flex: 1; }
.mamba .seats .count { font-variant-numeric: tabular-nums; font-weight: 600; min-width: 2ch; text-align: right; }
.mamba .seats .turn, .mamba .seats .won { white-space: nowrap; font-size: 11px; padding: 0 4px; border-radius: 4px; background: var(--mamba-ink); color: var(--mamba-bg); }
.mamba .goal, .mamba .hint { color: var(--mamba-ink2); }
.mamba .hint:empty { display: none; }
.mamba .toolbar { display: flex; gap: 6px; flex-wrap: wrap; align-items: center; }
/* Buttons and fields take the timeline's look (.tw-root); pressed toggles stand out. */
.mamba button, .mamba select, .mamba input { font: inherit; padding: 2px 8px; }
.mamba button[aria-pressed="true"] { background: var(--mamba-accent); color: var(--tw-bg, #fff); border-color: var(--mamba-accent); }
.mamba .toolbar[hidden] { display: none; }
.mamba .editor { display: flex; flex-direction: column; gap: 6px; }
/* Editing, the side column fits the table's height whatever its width: the goal and the hint
   (the editor says what editing does) make room, the seats' rows are closer. */
.mamba.editing .mamba-side { gap: 6px; }
.mamba.editing .goal, .mamba.editing .hint { display: none; }
.mamba.editing .seats { gap: 0; }
.mamba.editing .seats .mini-stone { width: 20px; height: 20px; }
.mamba.editing .editor { gap: 5px; }
.mamba .editor .help { font-size: 12px; color: var(--mamba-ink2); }
.mamba .editor[hidden] { display: none; }
.mamba .editor input.notation { font-family: var(--jp-code-font-family, monospace); width: 100%; box-sizing: border-box; }
.mamba .editor .palette { display: flex; gap: 4px; flex-wrap: wrap; }
.mamba .editor .status { color: var(--mamba-ink2); min-height: 1.2em; }
.mamba .editor .status.bad { color: var(--mamba-error); }
`;
