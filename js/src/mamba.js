// The Mamba widget: the board drawn like the physical game, play by clicking, the cascade
// frame by frame, and a position editor. The timeline (steps, slider, captions, errors) is
// the shared one from timeline.js; this module draws one frame and turns clicks into notation.
import { morphChildren, setText } from "./dom.js";
import { createGameWidget } from "./timeline.js";
import {
  ALL_CELLS,
  MAMBA_CSS,
  SIDE_ORDER,
  SIDE_WORD,
  boardClass,
  boardSvg,
  cellLabel,
  cellSvg,
  boardToPosition,
  cellIndex,
  emptyMarks,
  frameMarks,
  legendHtml,
  markedCells,
  movePathSvg,
  nextInCycle,
  offerMarkSvg,
  parseBoard,
  parseLegal,
  parsePosition,
  stepCell,
} from "./mamba_board.js";

const ARROW_KEYS = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" };
// The classes of a cell that say what it offers now (the rest come with the frame).
const OFFERS = ["dest", "birth-target", "trim-end"];
const DECOR = [...OFFERS, "pickable", "selected", "focus"];
const SVG_NS = "http://www.w3.org/2000/svg";

// Parsed markup, cloned on use: a cell's drawing recurs (the same stone, the same mark) and
// parsing is the slow part of drawing it. Bounded: a long session draws many.
const parsed = new Map();
const PARSED_MAX = 2000;

/** SVG markup → its nodes, parsed in the SVG namespace (fresh nodes on every call). */
function svgNodes(markup) {
  let tmp = parsed.get(markup);
  if (!tmp || tmp.ownerDocument !== document) {
    tmp = document.createElementNS(SVG_NS, "svg");
    tmp.innerHTML = markup;
    if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value);
    parsed.set(markup, tmp);
  }
  return Array.from(tmp.cloneNode(true).childNodes);
}

// A cell no mark names is drawn from its content alone: its markup is written once.
const plainCells = new Map();
const PLAIN = emptyMarks();
function plainCellSvg(cell, content) {
  const key = cell + content;
  let markup = plainCells.get(key);
  if (markup === undefined) {
    markup = cellSvg(cell, content, PLAIN);
    plainCells.set(key, markup);
  }
  return markup;
}

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function boardPart(position) {
  return String(position || "").trim().split(/\s+/)[0];
}

/** Mount the Mamba board in `boardEl`; see the renderer contract in docs/architecture.md. */
export function mount(boardEl, ctx) {
  const listeners = [];
  const on = (target, type, fn) => {
    target.addEventListener(type, fn);
    listeners.push(() => target.removeEventListener(type, fn));
  };

  // ---- layout -------------------------------------------------------------------------
  const root = el("div", { class: "mamba" });
  const main = el("div", { class: "mamba-main" });
  const host = el("div", {
    class: "board-host",
    tabindex: "0",
    role: "application",
    "aria-label": "Mamba board: arrow keys move the cursor, Enter picks, Escape cancels",
  });
  const hint = el("div", { class: "hint", "aria-live": "polite" });
  // The hint sits beside the board, under the seats: the board alone fills the table's height.
  main.append(host);
  const side = el("div", { class: "mamba-side" });
  const legend = el("div", { class: "legend" });
  const toolbar = el("div", { class: "toolbar" });
  const editButton = el("button", { type: "button", class: "edit-toggle", "aria-pressed": "false" }, "Edit position");
  toolbar.append(editButton);

  const editor = el("div", { class: "editor" });
  editor.hidden = true;
  const editHelp = el(
    "div",
    { class: "help" },
    "Click a cell to cycle it: empty → each side → empty (Shift-click backwards), or pick a brush. " +
      "Load starts a new match here, in place of the timeline.",
  );
  const palette = el("div", { class: "palette", role: "group", "aria-label": "brush" });
  const sideLabel = el("label", {}, "Side to move ");
  const sideSelect = el("select", { class: "side-to-move" });
  sideLabel.append(sideSelect);
  const notation = el("input", {
    class: "notation",
    type: "text",
    spellcheck: "false",
    "aria-label": "position notation",
  });
  const editActions = el("div", { class: "toolbar" });
  const loadButton = el("button", { type: "button", class: "load" }, "Load");
  const clearButton = el("button", { type: "button", class: "clear" }, "Clear board");
  const resetButton = el("button", { type: "button", class: "reset" }, "Back to the shown position");
  editActions.append(loadButton, clearButton, resetButton);
  const status = el("div", { class: "status", "aria-live": "polite" });
  editor.append(editHelp, palette, sideLabel, notation, editActions, status);

  side.append(legend, hint, toolbar, editor);
  root.append(main, side);
  boardEl.append(root);

  // ---- state --------------------------------------------------------------------------
  const s = {
    ctx,
    frame: null,
    marks: emptyMarks(), // the frame's own marks (event + pending choices)
    selected: null,
    mode: "move", // what a selected parent does next: "birth" or "move"
    focus: null,
    editing: false,
    edit: null, // {board: [81], side, brush}
    awaiting: null, // board part of a position sent to the kernel, until it comes back
  };

  const legalNow = () => (s.ctx.interactive && !s.editing ? parseLegal(s.ctx.legal) : parseLegal([]));

  function sidesInPlay() {
    const v = s.frame && s.frame.view;
    return v && Array.isArray(v.sides) && v.sides.length ? v.sides : ["S", "N"];
  }

  // ---- drawing ------------------------------------------------------------------------
  // `draw` puts a frame on the board (its animations run once, there); `decorate` shows the
  // choices on offer by changing only the cells whose offer changed, so offering a choice or
  // selecting a stone never re-draws the frame nor restarts its animation.
  let nodes = new Map(); // cell → its <g data-cell> in the board drawn last
  let drawn = []; // the markup each cell was drawn from, to re-draw only the cells that change
  let decor = new Map(); // cell → the decoration classes it carries now
  let pathDrawn = ""; // the markup of the move's path on the board

  function draw() {
    if (!s.frame || !s.frame.view) return;
    const view = s.frame.view;
    const board = s.editing ? s.edit.board : parseBoard(view.board);
    const marks = s.editing ? emptyMarks() : s.marks;
    let svg = host.querySelector("svg.mamba-board");
    if (!svg) {
      host.innerHTML = boardSvg({ board: board.join("") }, marks, { editing: s.editing });
      pathDrawn = movePathSvg(marks);
      svg = host.querySelector("svg.mamba-board");
      nodes = new Map(Array.from(svg.querySelectorAll("[data-cell]"), (n) => [n.getAttribute("data-cell"), n]));
      drawn = ALL_CELLS.map((cell, i) => cellSvg(cell, board[i], marks));
      decor = new Map();
    } else {
      // Only the cells whose drawing changed are replaced: their animations start on
      // insertion, and the cells that did not change stay still.
      const cls = boardClass(marks, s.editing);
      if (svg.getAttribute("class") !== cls) svg.setAttribute("class", cls);
      const cellsGroup = svg.querySelector(".cells");
      // The move's path is drawn again only when it changed (a frame of the same move keeps it).
      const path = movePathSvg(marks);
      if (path !== pathDrawn) {
        svg.querySelector(".move-path")?.remove();
        cellsGroup.before(...svgNodes(path));
        pathDrawn = path;
      }
      const marked = markedCells(marks);
      ALL_CELLS.forEach((cell, i) => {
        const markup = marked.has(cell) ? cellSvg(cell, board[i], marks) : plainCellSvg(cell, board[i]);
        if (markup === drawn[i]) return;
        const fresh = svgNodes(markup)[0];
        const old = nodes.get(cell);
        if (marks.slide && marks.slide.to === cell) {
          // A sliding stone passes over other cells: its cell goes on top.
          old.remove();
          cellsGroup.append(fresh);
        } else {
          old.replaceWith(fresh);
        }
        nodes.set(cell, fresh);
        drawn[i] = markup;
        decor.delete(cell);
      });
    }
    drawLegend(view);
    decorate();
  }

  let legendDrawn = "";
  let legendRows = ""; // what the legend's rows were parsed for: the sides, names and goal
  function drawLegend(view) {
    const markup = legendHtml(view, s.ctx.seatNames);
    if (markup === legendDrawn) return;
    legendDrawn = markup;
    // A move changes whose turn it is, a count and who won, not the rows: those are set in
    // place, with no markup parsed. Other seats or another goal parse the legend again.
    const rows = JSON.stringify([view.sides, s.ctx.seatNames, view.seats, view.goal]);
    if (rows === legendRows && setLegend(view)) return;
    legendRows = rows;
    const fresh = document.createElement("div");
    fresh.innerHTML = markup;
    morphChildren(legend, Array.from(fresh.childNodes));
    // A narrow table gives three or four seats' rows a taller box (MAMBA_CSS).
    boardEl.classList.toggle("mamba-many-seats", legend.querySelectorAll(".seats > .seat").length >= 3);
  }

  /** Set each legend row's turn, count and win as `legendHtml` draws them; false when the rows
   * are not those of `view`'s seats. */
  function setLegend(view) {
    const items = legend.querySelectorAll(".seats > li");
    const sides = view.sides || [];
    if (items.length !== sides.length) return false;
    sides.forEach((side, seat) => {
      const li = items[seat];
      const turn = view.to_move === seat;
      const won = (view.winners || []).includes(seat);
      const cls = ["seat", `side-${side}`, turn ? "to-move" : null, won ? "winner" : null].filter(Boolean).join(" ");
      if (li.className !== cls) li.className = cls;
      setText(li.querySelector(".count"), String(view.stones ? view.stones[seat] : ""));
      const badge = li.querySelector(".turn");
      const words = view.phase === "trim" ? "to trim" : "to move";
      if (turn && !badge) li.querySelector(".count").after(el("span", { class: "turn" }, words));
      else if (!turn && badge) badge.remove();
      else if (badge) setText(badge, words);
      const crown = li.querySelector(".won");
      if (won && !crown) li.append(el("span", { class: "won" }, "wins"));
      else if (!won && crown) crown.remove();
    });
    return true;
  }

  function wantedDecor() {
    const legal = legalNow();
    const want = new Map();
    const add = (cell, cls) => want.set(cell, [...(want.get(cell) || []), cls]);
    for (const c of [...legal.moves.keys(), ...legal.births.keys()]) add(c, "pickable");
    for (const c of legal.trims) add(c, "trim-end");
    if (s.selected) {
      add(s.selected, "selected");
      const birth = s.mode === "birth";
      for (const c of (birth ? legal.births : legal.moves).get(s.selected) || []) add(c, birth ? "birth-target" : "dest");
    }
    if (s.focus) add(s.focus, "focus");
    return want;
  }

  function decorate() {
    const want = wantedDecor();
    for (const cell of new Set([...decor.keys(), ...want.keys()])) {
      const classes = want.get(cell) || [];
      const key = classes.join(" ");
      const node = nodes.get(cell);
      if ((decor.get(cell) || "") === key || !node) continue;
      for (const k of DECOR) node.classList.toggle(k, classes.includes(k));
      const offer = OFFERS.find((k) => classes.includes(k));
      node.classList.toggle("offered", Boolean(offer));
      for (const mark of node.querySelectorAll(".offer")) mark.remove();
      if (offer) node.append(...svgNodes(offerMarkSvg(offer)));
      const content = node.querySelector("[data-stone]")?.getAttribute("data-stone") || ".";
      node.setAttribute("aria-label", cellLabel(cell, content, [...node.classList]));
      if (key) decor.set(cell, key);
      else decor.delete(cell);
    }
    setText(hint, hintText());
  }

  function hintText() {
    if (s.editing) return "Editing: the board is not played until you press Load.";
    const view = s.frame.view;
    const nameOf = (seat) => s.ctx.seatNames?.[seat] ?? view.seats?.[seat] ?? `Seat ${seat}`;
    if (!s.ctx.interactive) {
      // At the match's cursor but not this viewer's choice: say whose it is.
      const atCursor = s.ctx.live && s.frame.last && s.frame.step === s.ctx.cursor;
      if (!atCursor || !Number.isInteger(view.to_move)) return "";
      const bot = (s.ctx.botSeats || []).includes(view.to_move) ? " (bot)" : "";
      return `Waiting for ${nameOf(view.to_move)}${bot}.`;
    }
    const legal = legalNow();
    if (legal.trims.size) {
      return `Overpopulation: pick the end of the run to trim (${[...legal.trims].join(" or ")}).`;
    }
    if (s.selected) {
      const canBirth = legal.births.has(s.selected);
      const canMove = legal.moves.has(s.selected);
      if (s.mode === "birth") {
        return `${s.selected} gives birth: pick a marked cell of its cross` +
          (canMove ? " (pick the stone again to move it instead)." : ".");
      }
      return `Move ${s.selected}: pick a marked destination` +
        (canBirth ? " (pick the stone again to cancel)." : ", or Escape to cancel.");
    }
    const who = Number.isInteger(view.to_move) ? nameOf(view.to_move) : null;
    const parents = legal.births.size ? " Ringed stones are parents: pick one to give birth." : "";
    return who ? `${who}: pick one of your stones (click, or arrow keys and Enter).${parents}` : "";
  }

  // ---- playing ------------------------------------------------------------------------
  function clearSelection() {
    s.selected = null;
    s.mode = "move";
  }

  function pick(cell) {
    const legal = legalNow();
    if (legal.trims.has(cell)) {
      clearSelection();
      s.ctx.play(`trim ${cell}`);
      return;
    }
    if (s.selected) {
      const from = s.selected;
      if (s.mode === "birth" && (legal.births.get(from) || []).includes(cell)) {
        clearSelection();
        s.ctx.play(`${from}*${cell}`);
        return;
      }
      if (s.mode === "move" && (legal.moves.get(from) || []).includes(cell)) {
        clearSelection();
        s.ctx.play(`${from}-${cell}`);
        return;
      }
      if (cell === from) {
        // A parent offers birth first (births come before the move), then its moves.
        if (s.mode === "birth" && legal.moves.has(from)) s.mode = "move";
        else clearSelection();
        decorate();
        return;
      }
    }
    if (legal.moves.has(cell) || legal.births.has(cell)) {
      s.selected = cell;
      s.mode = legal.births.has(cell) ? "birth" : "move";
    } else {
      clearSelection();
    }
    decorate();
  }

  // ---- editing ------------------------------------------------------------------------
  function setEditBoard(board, sideToMove) {
    s.edit.board = board;
    s.edit.side = sideToMove;
    notation.value = boardToPosition(board, sideToMove);
    sideSelect.value = sideToMove;
    setStatus("");
  }

  function setStatus(text, bad = false) {
    status.textContent = text;
    status.classList.toggle("bad", bad);
  }

  function fillEditorControls() {
    const sides = sidesInPlay();
    sideSelect.replaceChildren(...sides.map((sd) => el("option", { value: sd }, `${sd} (${SIDE_WORD[sd]})`)));
    const brushes = [
      ["cycle", "Cycle"],
      ...SIDE_ORDER.filter((sd) => sides.includes(sd)).map((sd) => [sd, SIDE_WORD[sd]]),
      [".", "Eraser"],
    ];
    palette.replaceChildren(
      ...brushes.map(([value, label]) =>
        el("button", { type: "button", "data-brush": value, "aria-pressed": String(s.edit.brush === value) }, label),
      ),
    );
  }

  // The side the editor starts with: who decides, or inside a cascade (nobody decides there)
  // the player whose turn it is.
  function editSideOf(view) {
    const seat = Number.isInteger(view.to_move) ? view.to_move : view.active;
    return sidesInPlay()[Number.isInteger(seat) ? seat : 0];
  }

  function startEditing() {
    const view = s.frame.view;
    const toMove = editSideOf(view);
    s.editing = true;
    root.classList.add("editing");
    s.edit = { board: parseBoard(view.board), side: toMove, brush: "cycle" };
    clearSelection();
    editor.hidden = false;
    editButton.setAttribute("aria-pressed", "true");
    fillEditorControls();
    setEditBoard(s.edit.board, toMove);
    draw();
  }

  function stopEditing() {
    s.editing = false;
    root.classList.remove("editing");
    s.edit = null;
    s.awaiting = null;
    editor.hidden = true;
    editButton.setAttribute("aria-pressed", "false");
    draw();
  }

  function paint(cell, backwards) {
    const i = cellIndex(cell);
    if (i < 0) return;
    const brush = s.edit.brush;
    const next = brush === "cycle" ? nextInCycle(s.edit.board[i], sidesInPlay(), backwards) : brush;
    const board = s.edit.board.slice();
    board[i] = board[i] === next && brush !== "cycle" ? "." : next;
    setEditBoard(board, s.edit.side);
    draw();
  }

  function load() {
    let parsed;
    try {
      parsed = parsePosition(notation.value);
    } catch (err) {
      // Never send a board the editor cannot read: say why instead.
      setStatus(err.message, true);
      return;
    }
    if (!sidesInPlay().includes(parsed.side)) {
      setStatus(`side ${parsed.side} is not in this game (sides: ${sidesInPlay().join(", ")})`, true);
      return;
    }
    const text = notation.value.trim();
    s.awaiting = boardPart(text);
    setStatus("Sent to the kernel…");
    s.ctx.send({ type: "mamba_load_position", position: text });
  }

  const onError = () => {
    const msg = s.ctx.model && s.ctx.model.get("error");
    if (s.editing && s.awaiting && msg) {
      s.awaiting = null;
      setStatus(msg, true);
    }
  };
  // The kernel answers a Load with {"type": "mamba_position", ok, position | error}.
  const onAnswer = (msg) => {
    if (!msg || msg.type !== "mamba_position" || !s.editing || !s.awaiting) return;
    if (msg.ok) {
      stopEditing();
    } else {
      s.awaiting = null;
      setStatus(String(msg.error || "The position was not loaded."), true);
    }
  };
  if (ctx.model && typeof ctx.model.on === "function") {
    ctx.model.on("change:error", onError);
    ctx.model.on("msg:custom", onAnswer);
    listeners.push(() => {
      if (!ctx.model.off) return;
      ctx.model.off("change:error", onError);
      ctx.model.off("msg:custom", onAnswer);
    });
  }

  // ---- events -------------------------------------------------------------------------
  function activate(cell, backwards = false) {
    if (!s.frame) return;
    if (s.editing) paint(cell, backwards);
    else if (s.ctx.interactive) pick(cell);
  }

  on(host, "click", (ev) => {
    const target = ev.target.closest ? ev.target.closest("[data-cell]") : null;
    if (!target || !host.contains(target)) return;
    activate(target.getAttribute("data-cell"), ev.shiftKey);
  });

  // Where the keyboard's cursor starts: the first stone (or trimmable end) on offer, else the
  // middle of the board.
  function startCell() {
    const legal = legalNow();
    return [...legal.moves.keys(), ...legal.births.keys(), ...legal.trims][0] || "e5";
  }
  // The board reached by the keyboard shows its cursor at once (a click's focus does not: the
  // click picks a cell itself).
  on(host, "focus", () => {
    if (!s.frame || s.focus || !host.matches(":focus-visible")) return;
    s.focus = startCell();
    decorate();
  });

  on(host, "keydown", (ev) => {
    if (!s.frame) return;
    // Keys the board uses stop here, so the timeline (arrows step frames) does not act too.
    const handled = () => {
      ev.preventDefault();
      ev.stopPropagation();
    };
    if (ev.key === "Escape") {
      if (s.selected) {
        clearSelection();
        decorate();
        handled();
      }
      return;
    }
    if (ARROW_KEYS[ev.key]) {
      s.focus = stepCell(s.focus || s.selected || "e5", ARROW_KEYS[ev.key]) || s.focus || "e5";
      decorate();
      handled();
      return;
    }
    if ((ev.key === "Enter" || ev.key === " ") && !s.focus) {
      // No cursor yet: it shows first, on a stone the viewer may move, rather than nothing.
      s.focus = startCell();
      decorate();
      handled();
      return;
    }
    if ((ev.key === "Enter" || ev.key === " ") && s.focus) {
      activate(s.focus, ev.shiftKey);
      handled();
      return;
    }
    if (s.editing && s.focus) {
      const key = ev.key.toUpperCase();
      if (sidesInPlay().includes(key) || ev.key === "Delete" || ev.key === "Backspace" || ev.key === ".") {
        const board = s.edit.board.slice();
        board[cellIndex(s.focus)] = sidesInPlay().includes(key) ? key : ".";
        setEditBoard(board, s.edit.side);
        draw();
        handled();
      }
    }
  });

  on(editButton, "click", () => (s.editing ? stopEditing() : s.frame && startEditing()));
  on(palette, "click", (ev) => {
    const b = ev.target.closest ? ev.target.closest("[data-brush]") : null;
    if (!b || !s.edit) return;
    s.edit.brush = b.getAttribute("data-brush");
    for (const other of palette.querySelectorAll("[data-brush]")) {
      other.setAttribute("aria-pressed", String(other === b));
    }
  });
  on(sideSelect, "change", () => {
    if (s.edit) setEditBoard(s.edit.board, sideSelect.value);
  });
  on(notation, "input", () => {
    if (!s.edit) return;
    try {
      const parsed = parsePosition(notation.value);
      s.edit.board = parsed.board;
      if (sidesInPlay().includes(parsed.side)) {
        s.edit.side = parsed.side;
        sideSelect.value = parsed.side;
      }
      setStatus("");
      draw();
    } catch (err) {
      setStatus(err.message, true);
    }
  });
  on(notation, "keydown", (ev) => {
    if (ev.key === "Enter") {
      ev.preventDefault();
      load();
    }
  });
  on(loadButton, "click", load);
  on(clearButton, "click", () => {
    if (s.edit) {
      setEditBoard(new Array(81).fill("."), s.edit.side);
      draw();
    }
  });
  on(resetButton, "click", () => {
    if (s.edit && s.frame) {
      const v = s.frame.view;
      setEditBoard(parseBoard(v.board), editSideOf(v));
      draw();
    }
  });

  return {
    update(frame, prev, newCtx) {
      if (newCtx) s.ctx = newCtx;
      // A standalone replay has no kernel to load a position into; a replay and a player's
      // own screen load none (a new position would replace the game; Python refuses it).
      const model = s.ctx.model;
      toolbar.hidden = s.ctx.live === false || !!(model && (model.get("replay") || model.get("lock_seat")));
      if (frame !== s.frame) {
        s.frame = frame;
        s.marks = frameMarks(frame, prev, s.ctx.stepFirst);
        // The timeline's display switch: no motion at all when animations are off.
        if (s.ctx.settings && s.ctx.settings.animate === false) s.marks = { ...s.marks, animate: false, slide: null };
        clearSelection();
        // A position sent from the editor has come back as the new start: leave the editor.
        if (s.awaiting && frame && frame.step === 0 && boardPart(frame.view.position) === s.awaiting) {
          stopEditing();
        } else {
          draw();
        }
        // The animation belongs to this first drawing; later drawings of the frame are still.
        s.marks = { ...s.marks, animate: false, slide: null };
        return;
      }
      // The same frame again (the legal actions arrived, the seat names changed): keep the
      // drawing and its animation, refresh what is offered.
      const legal = legalNow();
      if (s.selected && !legal.moves.has(s.selected) && !legal.births.has(s.selected)) clearSelection();
      drawLegend(frame.view);
      decorate();
    },
    destroy() {
      for (const off of listeners.splice(0)) off();
      boardEl.classList.remove("mamba-many-seats");
      root.remove();
    },
  };
}

export default createGameWidget({ name: "mamba", css: MAMBA_CSS, mount, hidden: false });
