// The shared timeline and controls of every game widget.
//
// The frames live in the browser: stepping, the slider and play/pause never talk to the
// kernel. Python sends frames (`{"type": "frames", "from": i, "frames": [...]}`), the legal
// actions at the match cursor and cursor jumps; the browser sends `hello`, `play` and `goto`.
// See docs/architecture.md for the protocol and the renderer contract.
import baseCss from "./timeline.css";

/**
 * @typedef {{step: number, sub: number, caption: string, kind: string, data: object,
 *            view: object, last: boolean}} Frame
 * @typedef {{seat: number|null, seatNames: string[], interactive: boolean, legal: string[],
 *            play: (notation: string) => boolean, send: (msg: object) => void,
 *            settings: object, model: object, cursor: number, toMove: number|null,
 *            botSeats: number[], live: boolean}} Context
 * @typedef {{update: (frame: Frame, prev: Frame|null, ctx: Context) => void,
 *            destroy?: () => void}} Board
 * @typedef {{name: string, css?: string, mount: (el: HTMLElement, ctx: Context) => Board}} Spec
 */

/**
 * Milliseconds per frame for each speed of play/pause and of following new frames: each
 * live action (yours, each bot's) and each sub-step of a cascade is one such beat. The slow
 * ones leave time to read a long caption.
 */
export const SPEEDS = [
  ["5 s", 5000],
  ["3 s", 3000],
  ["2 s", 2000],
  ["1.4 s", 1400],
  ["0.7 s", 700],
  ["0.35 s", 350],
  ["0.15 s", 150],
];
export const DEFAULT_SPEED = 1400;

/** A play's answer not there after this many milliseconds: the board is drawn as waiting. */
export const PENDING_DRAW_MS = 150;

/**
 * The live region speaks the frame a person settles on: a caption once its frame has stayed
 * this many milliseconds. A dragged slider, a held key or a cascade played fast would otherwise
 * queue for a screen reader every caption passed over, more than it can read out; a step by a
 * key or a button after a still moment is spoken at once.
 */
export const SPEAK_SETTLE_MS = 400;

const nextFrame = (fn) => (typeof requestAnimationFrame === "function" ? requestAnimationFrame(fn) : setTimeout(fn, 0));
// The heights of the log's faded foot and head (timeline.css): the current entry is scrolled to
// stand between them, with an entry's top at the head (where a scroll of the log comes to rest).
const LOG_FADE = 20;
const LOG_HEAD = 14;
const cancelFrame = (id) => (typeof cancelAnimationFrame === "function" ? cancelAnimationFrame(id) : clearTimeout(id));

/**
 * The anywidget module of a game: `export default createGameWidget({name, css, mount})`.
 * @param {Spec} spec
 */
export function createGameWidget(spec) {
  if (!spec || typeof spec.mount !== "function") {
    throw new Error("createGameWidget needs {name, css, mount(boardEl, ctx)}");
  }
  return {
    /** @param {{model: object, el: HTMLElement}} args */
    render({ model, el }) {
      return mountTimeline(el, model, spec, true);
    },
    /** Play `frames` with no kernel (the standalone HTML replay). */
    mountStatic(el, options) {
      return mountStatic(el, { ...spec, ...options });
    },
  };
}

/**
 * A view patched as `tabletop_widgets/core/wire.py` describes: `{s: set, p: patch in place,
 * r: removed keys}` for an object, `{x: appended items}` for a list that grew. Returns a new
 * value; the unchanged parts are shared with `old` (renderers never change a view).
 */
export function applyPatch(old, patch) {
  if (Array.isArray(old)) {
    const out = old.concat(patch.x || []);
    for (const [index, sub] of Object.entries(patch.i || {})) out[Number(index)] = applyPatch(old[Number(index)], sub);
    return out;
  }
  const out = { ...old };
  for (const key of patch.r || []) delete out[key];
  const sets = patch.s || {};
  // A new key "__proto__" assigned would set the object's prototype; JSON.parse makes it a key.
  if (Object.hasOwn(sets, "__proto__") && !Object.hasOwn(out, "__proto__")) {
    Object.defineProperty(out, "__proto__", { value: sets.__proto__, enumerable: true, writable: true, configurable: true });
  }
  Object.assign(out, sets);
  for (const [key, sub] of Object.entries(patch.p || {})) out[key] = applyPatch(old[key], sub);
  return out;
}

/**
 * Frames as sent (each view as `view_delta`, a patch of the view before it) → frames with their
 * views. `before` is the frame held just before them (a `frames` message from index i > 0
 * patches its first frame against frame i - 1), or null: then the first frame has its view.
 * A frame sent without `last` is its step's last when the next one is of another step, or
 * none follows (Python leaves it out where the list tells it).
 */
export function decodeFrames(frames, before = null) {
  let prev = before;
  return frames.map((frame, i) => {
    if (frame && frame.view_delta && prev) {
      const { view_delta: delta, ...rest } = frame;
      frame = { ...rest, view: applyPatch(prev.view, delta) };
    }
    if (frame && typeof frame === "object" && !("last" in frame)) {
      const next = frames[i + 1];
      frame = { ...frame, last: !next || next.step !== frame.step };
    }
    prev = frame;
    return frame;
  });
}

/**
 * Mount the timeline over a fixed list of frames, with no kernel behind it.
 * @param {HTMLElement} el
 * @param {{name: string, frames: Frame[], seatNames?: string[], mount: Spec["mount"],
 *          css?: string, seat?: number|null, settings?: object, start?: number}} options
 * @returns {() => void} cleanup
 */
export function mountStatic(el, { name, frames, seatNames = [], mount, css = "", hidden, seat = null, settings = {}, start = 0 }) {
  const list = Array.isArray(frames) ? frames : [];
  const lastStep = list.length ? list[list.length - 1].step : 0;
  const model = standInModel({
    game: name,
    seat_names: seatNames,
    seat,
    cursor: lastStep,
    current: null,
    error: "",
    bot_seats: [],
    settings,
  });
  const cleanup = mountTimeline(el, model, { name, css, mount, hidden }, false);
  model.deliver({ type: "frames", from: 0, frames: list });
  model.deliver({ type: "show", index: start });
  return cleanup;
}

/** A model without a kernel: traits in a plain object, messages to nowhere. */
function standInModel(traits) {
  const handlers = new Map();
  const emit = (name, ...args) => (handlers.get(name) || []).slice().forEach((fn) => fn(...args));
  return {
    get: (key) => traits[key],
    set(key, value) {
      traits[key] = value;
      emit(`change:${key}`);
    },
    on(name, fn) {
      handlers.set(name, [...(handlers.get(name) || []), fn]);
    },
    off(name, fn) {
      handlers.set(name, (handlers.get(name) || []).filter((f) => f !== fn));
    },
    send() {},
    save_changes() {},
    deliver: (msg) => emit("msg:custom", msg, []),
  };
}

/** `h("button", {class: "x", "aria-label": "y"}, "text")` */
function h(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== false && value != null) node.setAttribute(key, value === true ? "" : String(value));
  }
  if (text != null) node.textContent = text;
  return node;
}

function isFormField(target) {
  return !!target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName || "");
}

/**
 * The timeline bound to a model (live: an anywidget model; otherwise a stand-in).
 * @returns {() => void} cleanup that removes every listener, timer and element it made
 */
function mountTimeline(el, model, spec, live) {
  const domListeners = [];
  const modelListeners = [];
  const listen = (target, type, fn) => {
    target.addEventListener(type, fn);
    domListeners.push([target, type, fn]);
  };
  const onModel = (name, fn) => {
    model.on(name, fn);
    modelListeners.push([name, fn]);
  };

  /** @type {{frames: Frame[], index: number, playing: boolean, following: boolean,
   *          timer: any, speed: number, legal: {step: number, to_move: number|null, actions: string[]},
   *          stepStart: Map<number, number>, stepCount: Map<number, number>, shown: Frame|null,
   *          spoken: string, renderError: string}} */
  const st = {
    frames: [],
    index: 0,
    playing: false,
    following: false,
    timer: null,
    speed: DEFAULT_SPEED,
    legal: { step: -1, to_move: null, actions: [] },
    stepStart: new Map(),
    stepCount: new Map(),
    shown: null,
    beatAt: -Infinity, // when the frame on screen was first drawn (Date.now())
    logFrom: 0, // log entries before this index match st.frames
    logCurrent: null, // the log entry marked current
    spoken: "", // the text the live region says, or will say once its frame has settled
    spokenAt: -Infinity, // when that text last changed (Date.now())
    speakTimer: null, // sets the live region's text once the frame shown has settled
    scrub: false, // the frame drawn next comes from the slider (a drag): never spoken at once
    renderError: "",
    pending: false, // a play was sent and Python has not answered yet (no double plays)
    playId: null, // the id of that play: Python's answers to it echo it, no other message does
    plays: 0, // plays sent from this display (a part of each id)
    moveShown: false, // the pending play's own move came (the bots' answers, with `legal`, follow)
    synced: false, // the frames held came from a full answer (`from: 0`), not a saved frame
    framesSeat: null, // the seat the frames held were made for (set below, once seatOf exists)
    keep: null, // {step, sub} shown when the seat changed: shown again once the new frames come
    pendingTimer: null, // draws the board as waiting when a play's answer is slow to come
    scrollFrame: null, // the animation frame that scrolls the log to the current entry
    cursorAhead: null, // the cursor of a move's answer, until the `cursor` update after it
    more: null, // {step, count}: frames of the last step held that are still on their way
    drawnCursor: null, // the cursor the last draw drew with
    coverDue: false, // pass-and-play: the screen is passed on, and the last player's frames still play
    coverTimer: null, // puts the cover up once the newest of those frames has had its beat
    playFocus: false, // the keyboard's focus was in the widget when this page's last play was sent
    coverFocus: false, // ... or when the screen was passed: the cover's button takes it
  };

  // ---- the elements ---------------------------------------------------------------------
  const title = model.get("game") || spec.name || "game";
  const root = h("div", {
    class: `tw-root tw-${title}`,
    tabindex: 0,
    role: "group",
    "aria-label": `${title} game`,
    "data-lm-suppress-shortcuts": "true",
  });
  const style = h("style");
  style.textContent = `${baseCss}\n${spec.css || ""}`;

  const header = h("div", { class: "tw-header" });
  const seatLabel = h("label", { class: "tw-seat-label" }, "View ");
  const seatSelect = h("select", { class: "tw-seat", "aria-label": "Viewing seat" });
  seatLabel.append(seatSelect);
  const viewNote = h("span", { class: "tw-view-note" });
  // The all-seeing view reveals every hidden card: chosen in the View menu, it asks first.
  const seeAll = h("div", { class: "tw-see-all", role: "alertdialog", "aria-label": "Show every hidden card?", hidden: true });
  const seeAllYes = h("button", { type: "button", class: "tw-see-all-yes" }, "Show every card");
  const seeAllNo = h("button", { type: "button", class: "tw-see-all-no" }, "Cancel");
  seeAll.append(
    h("span", {}, "The all-seeing view shows every hidden card and choice, to whoever looks at this screen."),
    seeAllYes,
    seeAllNo,
  );
  const replayNote = h("span", { class: "tw-replay-note", hidden: true }, "Replay: nothing is played here.");
  header.append(h("span", { class: "tw-title" }, title), seatLabel, viewNote, replayNote);

  const errorBox = h("div", { class: "tw-error", role: "alert", hidden: true });
  const errorText = h("span", { class: "tw-error-text" });
  const errorClose = h("button", { type: "button", class: "tw-error-close", "aria-label": "Dismiss error", title: "Dismiss" }, "×");
  errorBox.append(errorText, errorClose);

  const boardEl = h("div", { class: "tw-board" });
  // Two lines tall; a longer caption scrolls inside, so it is focusable for the keyboard. What
  // changes with the frame (the caption, the counter, the slider, the spoken caption) sits in a
  // box of a fixed size that is laid out on its own (timeline.css): a frame does not lay out
  // the page.
  const caption = h("div", { class: "tw-caption", tabindex: 0 });
  const captionBox = h("div", { class: "tw-caption-box" });
  captionBox.append(caption);
  const speaker = h("div", { class: "tw-sr-only", "aria-live": "polite", "aria-atomic": "true" });
  const speakerText = h("div", { class: "tw-sr-text" });
  speaker.append(speakerText);

  // The log beside the table: one entry per frame, the shown one marked aria-current. One
  // entry at a time is in the tab order (roving tabindex); arrows move inside the list.
  const logBox = h("div", { class: "tw-log-box" });
  // role="list": a list styled without markers keeps its list semantics in every browser.
  const logList = h("ol", { class: "tw-log", role: "list", "aria-label": "Game log" });
  logBox.append(logList);
  const main = h("div", { class: "tw-main" });
  // Pass-and-play: covers the table and the log between two players' turns.
  const passCover = h("div", { class: "tw-pass", role: "dialog", "aria-label": "Pass the screen", hidden: true });
  const passText = h("p", { class: "tw-pass-text" });
  const passBtn = h("button", { type: "button", class: "tw-pass-ready" });
  passCover.append(passText, passBtn);

  const bar = h("div", { class: "tw-bar", role: "toolbar", "aria-label": "Timeline" });
  const button = (cls, text, label) =>
    h("button", { type: "button", class: `tw-${cls}`, "aria-label": label, title: label }, text);
  const firstBtn = button("first", "|◀", "First frame");
  const prevBtn = button("prev", "◀", "Previous frame");
  const playBtn = button("play", "▶ Play", "Play");
  const nextBtn = button("next", "▶", "Next frame");
  const lastBtn = button("last", "▶|", "Last frame");
  const slider = h("input", { type: "range", class: "tw-slider", min: 0, max: 0, step: 1, value: 0, "aria-label": "Frame" });
  const sliderBox = h("div", { class: "tw-slider-box" });
  sliderBox.append(slider);
  const stepText = h("span", { class: "tw-step" });
  const stepBox = h("span", { class: "tw-step-box" });
  stepBox.append(stepText);
  const speedSelect = h("select", { class: "tw-speed", "aria-label": "Seconds per frame", title: "Seconds per frame" });
  for (const [label, ms] of SPEEDS) {
    const option = h("option", { value: ms }, label);
    if (ms === DEFAULT_SPEED) option.selected = true;
    speedSelect.append(option);
  }
  const continueBtn = h(
    "button",
    { type: "button", class: "tw-continue", hidden: true, title: "Move the match here; the next action replaces the later steps" },
    "Continue from here",
  );
  // Its name starts with the words it shows, so that a voice ("click Skip to now") finds it.
  const skipBtn = button("skip", "Skip to now", "Skip to now: the newest frame");
  // Every control keeps its place and width on every frame. The two kernel buttons sit beside
  // the caption, not in the bar, and one that does not apply is hidden but keeps its slot
  // (timeline.css): the slider never changes width under a drag.
  bar.append(firstBtn, prevBtn, playBtn, nextBtn, lastBtn, sliderBox, stepBox, speedSelect);
  const status = h("div", { class: "tw-status" });
  const liveControls = h("div", { class: "tw-live-controls" });
  liveControls.append(skipBtn, continueBtn);
  status.append(captionBox, liveControls);

  main.append(boardEl, status);
  root.append(style, header, seeAll, errorBox, main, logBox, passCover, speaker, bar);
  el.append(root);
  // The widget's own width (a notebook beside its file browser), not the window's, decides
  // where the log goes (timeline.css).
  el.classList.add("tw-host");

  // ---- the renderer context ---------------------------------------------------------------
  const seatOf = () => {
    const seat = model.get("seat");
    return typeof seat === "number" ? seat : null;
  };
  // A move's answer carries the cursor (its `legal.step`) ahead of the `cursor` update that
  // follows it: until that update comes, the answer's cursor is the one drawn.
  const cursorOf = () => st.cursorAhead ?? model.get("cursor") ?? 0;
  st.framesSeat = seatOf();
  // Tells this display's plays from those of another display of the widget (another tab).
  const displayTag = Math.random().toString(36).slice(2, 7).padEnd(5, "0");
  /** The frames held belong to another seat: hide them until that seat's frames arrive. */
  const awaitingSeat = () => !st.coverDue && st.framesSeat !== seatOf();
  /** Pass-and-play: Python passed the screen on (it sends nothing with a view until the next
   * player opens it). */
  const passing = () => Number.isInteger(model.get("pass_to"));
  /** The cover is up: the page holds no frame. Until then (`st.coverDue`) the last player
   * watches the frames they were sent play out, in their own view. */
  const covered = () => passing() && !st.coverDue;
  /** The seat whose view is on the screen: the last player's while the cover waits. */
  const viewSeat = () => (st.coverDue ? st.framesSeat : seatOf());
  /** A recorded game to step through: nothing is played from here (Python refuses it too). */
  const replayMode = () => !!model.get("replay");

  /** @returns {Context} */
  function context() {
    const frame = st.frames[st.index];
    const cursor = cursorOf();
    const legal = st.legal.step === cursor ? st.legal.actions : [];
    const interactive =
      live && !replayMode() && !st.pending && !!frame && !!frame.last && frame.step === cursor && legal.length > 0;
    return {
      seat: viewSeat(),
      seatNames: model.get("seat_names") || [],
      interactive,
      legal: interactive ? legal.slice() : [],
      play(notation) {
        if (!interactive || st.pending || typeof notation !== "string") return false;
        st.pending = true;
        st.playFocus = root.contains(document.activeElement);
        st.moveShown = false;
        st.plays += 1;
        st.playId = `${displayTag}${st.plays}`;
        model.send({ type: "play", action: notation, step: cursor, id: st.playId });
        // The answer usually comes within milliseconds, and it is drawn once. Drawing the
        // board as waiting now would only keep the page busy while the answer is on its way;
        // a kernel that is slow to answer (a cell running) gets the waiting board.
        stopPendingTimer();
        st.pendingTimer = setTimeout(() => {
          st.pendingTimer = null;
          if (st.pending) draw();
        }, PENDING_DRAW_MS);
        return true;
      },
      send(msg) {
        if (live) model.send(msg);
      },
      settings: model.get("settings") || {},
      model,
      cursor,
      toMove: st.legal.step === cursor ? st.legal.to_move : null,
      botSeats: model.get("bot_seats") || [],
      live,
      // The first frame of the step shown: its action's own event (a move, a lay, a turn), so a
      // later sub-step can still mark what was played.
      stepFirst: frame ? st.frames[st.stepStart.get(frame.step) ?? -1] || null : null,
    };
  }

  let board = spec.mount(boardEl, context());

  /** A fresh board: nothing the last frame drew stays in the page (a screen passed on). */
  function remountBoard() {
    if (board && typeof board.destroy === "function") board.destroy();
    boardEl.replaceChildren();
    board = spec.mount(boardEl, context());
  }

  // ---- frames ------------------------------------------------------------------------------
  function reindex() {
    st.stepStart = new Map();
    st.stepCount = new Map();
    st.frames.forEach((frame, i) => {
      if (!st.stepStart.has(frame.step)) st.stepStart.set(frame.step, i);
      st.stepCount.set(frame.step, (st.stepCount.get(frame.step) || 0) + 1);
    });
  }

  /** Index of the last frame of `step` (or of the nearest earlier step). */
  function lastFrameOf(step) {
    for (let i = st.frames.length - 1; i >= 0; i--) {
      if (st.frames[i].step <= step) return i;
    }
    return 0;
  }

  function findFrame(step, sub) {
    const start = st.stepStart.get(step);
    if (start !== undefined && start + sub < st.frames.length && st.frames[start + sub].step === step) {
      return start + sub;
    }
    return lastFrameOf(step);
  }

  const atEnd = () => st.index >= st.frames.length - 1;

  function stopPendingTimer() {
    if (st.pendingTimer !== null) clearTimeout(st.pendingTimer);
    st.pendingTimer = null;
  }

  /** A message answering the play this display waits for: Python echoes the play's id. */
  const answersPlay = (msg) => st.pending && typeof msg.id === "string" && msg.id === st.playId;

  /**
   * The legal actions at the cursor (a `legal` message, or the `legal` of a `frames` one). The
   * wait for a play ends with the legal actions answering it (Python answers every play so,
   * even a refused one), not with those answering another display's message taken first.
   */
  function takeLegal(legal, answer) {
    if (answer) {
      st.pending = st.moveShown = false;
      stopPendingTimer();
    }
    st.legal = {
      step: Number.isInteger(legal.step) ? legal.step : -1,
      to_move: Number.isInteger(legal.to_move) ? legal.to_move : null,
      actions: Array.isArray(legal.actions) ? legal.actions.filter((a) => typeof a === "string") : [],
    };
  }
  const animate = () => (model.get("settings") || {}).animate !== false;

  function receiveFrames(msg) {
    // While the seat changes only a full reset (`from: 0`, Python's answer) is for the new
    // seat; a later part sent before it belongs to the old seat's timeline. Before the first
    // full answer (only a saved frame held), a part patches frames not held: the answer to
    // `hello` brings them all.
    if ((awaitingSeat() || st.coverDue || st.keep || !st.synced) && msg.from !== 0) {
      // The old seat's frames; when they answer this display's play, its wait is over.
      if (msg.legal && answersPlay(msg)) {
        takeLegal(msg.legal, true);
        draw();
      }
      return;
    }
    const from = Math.max(0, Math.min(Number.isInteger(msg.from) ? msg.from : 0, st.frames.length));
    const incoming = Array.isArray(msg.frames) ? decodeFrames(msg.frames, from > 0 ? st.frames[from - 1] : null) : [];
    if (from === 0) st.synced = true;
    // The answer to this page's own play: that move shows at once, whatever beat the frame
    // before it had (the player has seen it: they just answered it). When bots answer it,
    // the move comes first, on its own: its step is the cursor until the bots' answers follow
    // with `legal` (nothing is playable until then), and those get their beats after it.
    const answer = answersPlay(msg) && !st.moveShown;
    if (msg.legal && typeof msg.legal === "object") {
      takeLegal(msg.legal, answersPlay(msg));
      if (from > 0 && st.legal.step >= 0) st.cursorAhead = st.legal.step;
    } else if (from > 0 && incoming.length) {
      // New steps without `legal` (a move before the bots' answers): the actions held are of a
      // step played past, in every display of the widget; `legal` follows.
      st.legal = { ...st.legal, actions: [] };
      if (answer) {
        st.moveShown = true;
        st.cursorAhead = incoming[incoming.length - 1].step;
      }
    }
    const shown = st.keep || st.frames[st.index];
    st.keep = null;
    if (from === 0) st.framesSeat = seatOf();
    const follow = from > 0 && (st.following || st.index >= from - 1);
    st.frames = st.frames.slice(0, from).concat(incoming);
    st.logFrom = Math.min(st.logFrom, from);
    reindex();
    // A move sent ahead of the rest of its step (`more`: the frames that follow it at once):
    // the counter counts them already, so it reads the same when they come.
    const more = msg.more;
    st.more = incoming.length && Number.isInteger(more) && more > 0 && more < 1e6
      ? { step: incoming[incoming.length - 1].step, count: more }
      : null;
    // The widget state a notebook saves holds the frame at the live end (Python's `current`).
    // After a move from this page Python does not send that frame again: it is the last one
    // just received, so the model keeps it here. (It is not sent back on its own; an update
    // of the seat or the settings carries it along, and Python checks it is a frame it sent.)
    // Not on a pass-and-play screen: the model keeps a change made here until it next saves,
    // so the frame would stay in the page under the cover and reach the kernel from the next
    // player's screen (the model keeps Python's: the frame the screen was opened on, or none).
    const shared = (model.get("seats") || []).length > 0;
    if (live && from > 0 && incoming.length && !shared) model.set("current", st.frames[st.frames.length - 1]);
    if (live && from === 0 && !shared) {
      // A reset (another seat, another match): the frame kept above is of the old one. Python
      // sent its own `current` just before; the model keeps a kernel's value without dropping
      // a change made here, so it is set here again (through null: setting an equal value
      // changes nothing), or the old frame would go back to Python, which refuses it.
      const python = model.get("current");
      if (python) {
        model.set("current", null);
        model.set("current", python);
      }
    }
    if (from === 0) {
      // A reset (first answer, seat change, new match): keep showing the same moment.
      stopTimer();
      st.following = st.playing = false;
      st.index = !shown
        ? Math.max(0, st.frames.length - 1)
        : shown.sub === null ? lastFrameOf(shown.step) : findFrame(shown.step, shown.sub);
      // A passed screen just opened: from the first step its player has not seen, at the speed.
      if (shown && shown.follow && animate() && !atEnd()) {
        st.following = true;
        schedule();
      }
    } else if (follow && incoming.length) {
      // Each new frame is a beat at the chosen speed: a cascade steps by itself, and a bot's
      // answer arriving just after your move waits until your move has had its beat.
      st.playing = false;
      if (!animate()) {
        stopTimer();
        st.following = false;
        st.index = st.frames.length - 1;
      } else if (st.following && st.timer !== null && st.index < from) {
        // a run in progress: the new frames join it
      } else {
        const waited = Date.now() - st.beatAt;
        st.following = true;
        stopTimer();
        if (st.index >= from || waited >= st.speed || answer) {
          st.index = from;
          if (atEnd()) st.following = false;
          else schedule();
        } else {
          schedule(st.speed - waited);
        }
      }
    }
    st.index = Math.max(0, Math.min(st.index, st.frames.length - 1));
    draw();
  }

  // ---- play / pause and following ------------------------------------------------------------
  function stopTimer() {
    if (st.timer !== null) clearTimeout(st.timer);
    st.timer = null;
  }

  function schedule(delay = st.speed) {
    if (st.timer !== null) return;
    st.timer = setTimeout(() => {
      st.timer = null;
      if (!atEnd()) st.index += 1;
      if (atEnd()) st.playing = st.following = false;
      draw();
      if (st.playing || st.following) schedule();
    }, Math.max(0, delay));
  }

  /** A player opening a passed screen watches what happened since, at the chosen speed. */
  function followOn() {
    if (animate() && !atEnd()) {
      st.following = true;
      schedule();
    }
    draw();
  }

  function stop() {
    stopTimer();
    st.playing = st.following = false;
  }

  /** Show frame `index`; `scrub`: it comes from the slider, whose drag passes over frames. */
  function show(index, scrub = false) {
    stop();
    st.scrub = scrub;
    st.index = Math.max(0, Math.min(index, st.frames.length - 1));
    draw();
  }

  function togglePlay() {
    if (st.playing || st.following) {
      stop();
    } else if (st.frames.length > 1) {
      if (atEnd()) st.index = 0;
      st.playing = true;
      schedule();
    }
    draw();
  }

  // ---- drawing ---------------------------------------------------------------------------
  // Each frame writes only what differs: setting a text, an attribute or a property to the
  // value it already has still invalidates style and layout.
  // A text is changed in its text node: replacing the node (textContent) takes it out of the
  // layout and puts a new one in.
  const setText = (node, text) => {
    const only = node.firstChild;
    if (only && only === node.lastChild && only.nodeType === 3) {
      if (only.nodeValue !== text) only.nodeValue = text;
    } else if (node.textContent !== text) node.textContent = text;
  };
  const setProp = (node, name, value) => {
    if (node[name] !== value) node[name] = value;
  };
  const setAttr = (node, name, value) => {
    if (node.getAttribute(name) !== value) node.setAttribute(name, value);
  };

  function drawSeats() {
    const names = model.get("seat_names") || [];
    const bots = model.get("bot_seats") || [];
    const seat = viewSeat();
    const locked = !!model.get("lock_seat");
    // A locked screen is a player's own: the all-seeing view is not offered there (Python may
    // still set it, and then it is shown as the current view).
    const offerAll = !locked || seat === null;
    // The options are gone through only when what they are drawn from changed (the model's
    // values are the same objects until set again): a frame changes none of it.
    const optionsFrom = [names, bots, offerAll];
    if (!st.optionsFrom || optionsFrom.some((part, i) => part !== st.optionsFrom[i])) {
      st.optionsFrom = optionsFrom;
      const wanted = [
        ...(offerAll ? [["", "All-seeing view"]] : []),
        ...names.map((n, i) => [String(i), bots.includes(i) ? `${n} (bot)` : n]),
      ];
      const have = Array.from(seatSelect.options).map((o) => [o.value, o.textContent]);
      if (JSON.stringify(have) !== JSON.stringify(wanted)) {
        seatSelect.replaceChildren(...wanted.map(([value, label]) => h("option", { value }, label)));
      }
    }
    setProp(seatSelect, "value", seat === null ? "" : String(seat));
    if (locked || seat === null) setProp(seeAll, "hidden", true);
    // A replay holds one seat's frames only: its view cannot change. A locked widget is a
    // player's own screen: Python refuses a seat change from the browser anyway.
    setProp(seatSelect, "disabled", !live || locked);
    setProp(seatSelect, "title", locked ? "This view is locked to one seat." : "");
    const name = names[seat] ?? `Seat ${seat}`;
    // A game with nothing hidden (spec.hidden === false) shows every seat the same board. The
    // View menu beside the note names the view: the note says what it shows, and with the
    // replay's note it keeps to the header's line beside Lab's file browser.
    if (spec.hidden === false) {
      setText(viewNote, seat === null ? "Nothing is hidden in this game." : `The same board; clicks play for ${name}.`);
    } else {
      setText(viewNote, seat === null ? "Every hidden card and choice shown." : `Only what ${name} may know.`);
    }
  }

  function logEntry(frame, index) {
    const item = h("li", { class: frame.sub > 0 ? "tw-log-item tw-log-sub" : "tw-log-item" });
    const entry = h("button", { type: "button", class: "tw-log-entry", tabindex: -1, "data-index": index });
    const number = frame.sub > 0 ? "" : frame.step === 0 ? "0." : `${frame.step}.`;
    entry.append(h("span", { class: "tw-log-num", "aria-hidden": number ? false : "true" }, number));
    entry.append(h("span", { class: "tw-log-text" }, frame.caption || ""));
    if (number) entry.setAttribute("aria-label", `Step ${frame.step}: ${frame.caption || ""}`);
    item.append(entry);
    return item;
  }

  /** The log holds one entry per frame held; only entries from `st.logFrom` on are rebuilt. */
  function drawLog() {
    const held = awaitingSeat() || covered() ? 0 : st.frames.length;
    const from = Math.min(st.logFrom, held);
    while (logList.children.length > from) logList.lastElementChild.remove();
    if (held > from) {
      const fragment = document.createDocumentFragment();
      for (let i = from; i < held; i++) fragment.append(logEntry(st.frames[i], i));
      logList.append(fragment);
    }
    st.logFrom = held;
    const current = held ? logList.children[st.index] || null : null;
    // The entry marked before (kept, not searched for: the log can hold thousands).
    const old = st.logCurrent;
    if (old === current && (!current || current.classList.contains("tw-log-current"))) return;
    if (old && old !== current) {
      old.classList.remove("tw-log-current");
      const entry = old.firstElementChild;
      entry.removeAttribute("aria-current");
      entry.tabIndex = -1;
    }
    st.logCurrent = current;
    if (!current) return;
    const entry = current.firstElementChild;
    current.classList.add("tw-log-current");
    entry.setAttribute("aria-current", "step");
    entry.tabIndex = 0;
    // Scroll the log itself (never the page) so the current entry is in view, once the page
    // is laid out for its next paint anyway: measuring here, before the board is drawn, would
    // lay out the whole page an extra time on every frame drawn.
    if (st.scrollFrame === null) st.scrollFrame = nextFrame(scrollLog);
  }

  // A narrower column wraps the entries onto more lines and moves the current one: it is
  // scrolled back into view (a notebook's side panel opened, a window resized).
  let logWidth = 0;
  const logResize = typeof ResizeObserver === "function" ? new ResizeObserver(() => {
    const width = logList.clientWidth;
    if (width === logWidth) return;
    logWidth = width;
    if (st.logCurrent && st.scrollFrame === null) st.scrollFrame = nextFrame(scrollLog);
  }) : null;
  if (logResize) logResize.observe(logList);

  function scrollLog() {
    st.scrollFrame = null;
    const current = st.logCurrent;
    if (!current || !current.isConnected) return;
    const top = current.offsetTop;
    const bottom = top + current.offsetHeight;
    if (top - LOG_HEAD < logList.scrollTop) logList.scrollTop = top - LOG_HEAD;
    else if (bottom + LOG_FADE > logList.scrollTop + logList.clientHeight) {
      // The first entry that, at the head, leaves the current one whole above the foot.
      const least = bottom + LOG_FADE - logList.clientHeight;
      let first = current;
      while (first.previousElementSibling && first.previousElementSibling.offsetTop - LOG_HEAD >= least) first = first.previousElementSibling;
      logList.scrollTop = first.offsetTop - LOG_HEAD;
    }
  }

  function drawPass() {
    const to = model.get("pass_to");
    const shown = live && covered();
    setProp(passCover, "hidden", !shown);
    root.classList.toggle("tw-passing", shown);
    if (!shown) return;
    const name = (model.get("seat_names") || [])[to] ?? `Seat ${to}`;
    setText(passText, `Pass the screen to ${name}.`);
    setText(passBtn, `I am ${name}: show my cards`);
  }

  function drawReplay() {
    setProp(replayNote, "hidden", !(live && replayMode()));
    root.classList.toggle("tw-replay", live && replayMode());
  }

  function stopSpeakTimer() {
    if (st.speakTimer !== null) clearTimeout(st.speakTimer);
    st.speakTimer = null;
  }

  /** The live region says `text` once it has stayed SPEAK_SETTLE_MS, or at once when the text
   * before it had stayed that long and it does not come from the slider. */
  function speak(text) {
    const scrub = st.scrub;
    st.scrub = false;
    if (text === st.spoken) return;
    const now = Date.now();
    const settled = now - st.spokenAt >= SPEAK_SETTLE_MS;
    st.spoken = text;
    st.spokenAt = now;
    if (settled && !scrub) {
      stopSpeakTimer();
      setText(speakerText, text);
    } else if (st.speakTimer === null) st.speakTimer = setTimeout(speakSettled, SPEAK_SETTLE_MS);
  }

  /** The timer of `speak`: one for a whole drag, waiting on while the frames keep coming. */
  function speakSettled() {
    const left = st.spokenAt + SPEAK_SETTLE_MS - Date.now();
    if (left > 0) {
      st.speakTimer = setTimeout(speakSettled, left);
      return;
    }
    st.speakTimer = null;
    setText(speakerText, st.spoken);
  }

  function drawError() {
    const message = model.get("error") || st.renderError;
    setProp(errorBox, "hidden", !message);
    setText(errorText, message || "");
  }

  function draw() {
    // After a seat change the board shows nothing until that seat's frames arrive: the old
    // seat's frames must not appear under the new seat's label (nor the other way round).
    boardEl.classList.toggle("tw-awaiting", awaitingSeat());
    const frame = awaitingSeat() || covered() ? undefined : st.frames[st.index];
    const n = st.frames.length;
    const cursor = cursorOf();
    st.drawnCursor = cursor;
    for (const btn of [firstBtn, prevBtn]) setProp(btn, "disabled", st.index <= 0);
    for (const btn of [nextBtn, lastBtn]) setProp(btn, "disabled", st.index >= n - 1);
    setProp(playBtn, "disabled", n <= 1);
    const running = st.playing || st.following;
    setText(playBtn, running ? "❚❚ Pause" : "▶ Play");
    setAttr(playBtn, "aria-label", running ? "Pause" : "Play");
    setProp(playBtn, "title", running ? "Pause" : "Play");
    setAttr(playBtn, "aria-pressed", running ? "true" : "false");
    setProp(slider, "max", String(Math.max(0, n - 1)));
    setProp(slider, "value", String(st.index));
    setProp(slider, "disabled", n <= 1);
    if (frame) {
      const lastStep = st.frames[n - 1].step;
      const count = (st.stepCount.get(frame.step) || 1) + (st.more && st.more.step === frame.step ? st.more.count : 0);
      const position = st.index - (st.stepStart.get(frame.step) ?? st.index) + 1;
      const text = `step ${frame.step} / ${lastStep}` + (count > 1 ? ` · ${position}/${count}` : "");
      setText(stepText, text);
      setAttr(slider, "aria-valuetext", text);
      setText(caption, frame.caption || "");
    } else {
      setText(stepText, "step 0 / 0");
      setText(caption, !live
        ? "No frames."
        : covered()
          ? ""
          : awaitingSeat()
            ? "Waiting for this view's frames…"
            : "Waiting for the kernel…");
    }
    drawPass();
    speak(covered() && live ? passText.textContent : caption.textContent);
    // A locked screen is a player's own: Python refuses to move the match from it.
    const mayContinue = live && !replayMode() && !model.get("lock_seat");
    // While new frames play at their beats (a bot's answer, a cascade) the frame shown is behind
    // only for the pace: continuing there would drop the answers still to be shown.
    setProp(continueBtn, "hidden", !(mayContinue && frame && frame.last && frame.step !== cursor && !st.following));
    // Kernel controls exist only where they can apply; there they keep their slots.
    root.classList.toggle("tw-kernel", live && !replayMode());
    root.classList.toggle("tw-may-continue", mayContinue);
    setProp(skipBtn, "disabled", !frame || st.index >= n - 1);
    drawSeats();
    drawReplay();
    drawLog();
    if (frame) {
      // A control the keyboard is on may go with the frame (Play turn, once the turn is
      // played): the focus then stays in the widget (its keys step the timeline) rather than
      // falling back to the notebook.
      const active = document.activeElement;
      const focusOnBoard = !!active && active !== boardEl && boardEl.contains(active);
      try {
        board.update(frame, st.shown, context());
        st.renderError = "";
      } catch (err) {
        // A drawing bug must not freeze the timeline: say so and keep the controls working.
        console.error(err);
        st.renderError = `The board could not be drawn: ${err && err.message ? err.message : err}`;
      }
      if (frame !== st.shown) st.beatAt = Date.now();
      st.shown = frame;
      if (focusOnBoard && !active.isConnected && !root.contains(document.activeElement)) root.focus({ preventScroll: true });
    }
    drawError();
    if (st.coverDue) awaitCover();
  }

  // ---- events ----------------------------------------------------------------------------
  listen(firstBtn, "click", () => show(0));
  listen(prevBtn, "click", () => show(st.index - 1));
  listen(nextBtn, "click", () => show(st.index + 1));
  listen(lastBtn, "click", () => show(st.frames.length - 1));
  listen(playBtn, "click", togglePlay);
  listen(skipBtn, "click", () => show(st.frames.length - 1));
  listen(passBtn, "click", () => {
    if (live && covered()) model.send({ type: "ready" });
  });
  listen(logList, "click", (event) => {
    const entry = event.target.closest && event.target.closest(".tw-log-entry");
    if (entry) show(Number(entry.dataset.index));
  });
  listen(logList, "keydown", (event) => {
    // Up and down walk the log (and the board with it); Enter or Space on an entry jumps too.
    const key = event.key;
    if (key !== "ArrowUp" && key !== "ArrowDown") return;
    event.preventDefault();
    show(st.index + (key === "ArrowUp" ? -1 : 1));
    const entry = logList.children[st.index] && logList.children[st.index].firstElementChild;
    if (entry) entry.focus();
  });
  listen(slider, "input", () => show(Number(slider.value), true));
  listen(speedSelect, "change", () => {
    st.speed = Number(speedSelect.value) || DEFAULT_SPEED;
    if (st.timer !== null) {
      stopTimer();
      schedule();
    }
    if (st.coverTimer !== null) {
      stopCoverTimer();
      awaitCover();
    }
  });
  listen(continueBtn, "click", () => {
    const frame = st.frames[st.index];
    if (live && frame) model.send({ type: "goto", step: frame.step });
  });
  const setSeat = (seat) => {
    seeAll.hidden = true;
    model.set("seat", seat);
    model.save_changes();
  };
  listen(seatSelect, "change", () => {
    if (seatSelect.value === "" && seatOf() !== null && spec.hidden !== false) {
      // Every hidden card on the screen of someone playing: ask first.
      seatSelect.value = String(seatOf());
      seeAll.hidden = false;
      seeAllYes.focus();
      return;
    }
    setSeat(seatSelect.value === "" ? null : Number(seatSelect.value));
  });
  listen(seeAllYes, "click", () => setSeat(null));
  listen(seeAllNo, "click", () => {
    seeAll.hidden = true;
    seatSelect.focus();
  });
  listen(errorClose, "click", () => {
    st.renderError = "";
    model.set("error", "");
    model.save_changes();
    drawError();
  });
  listen(root, "keydown", (event) => {
    // Form fields keep their own keys (the slider already steps with the arrows).
    if (isFormField(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
    const key = event.key;
    if (key === "ArrowLeft") show(st.index - 1);
    else if (key === "ArrowRight") show(st.index + 1);
    else if (key === "Home") show(0);
    else if (key === "End") show(st.frames.length - 1);
    else if ((key === " " || key === "Spacebar") && event.target.tagName !== "BUTTON") togglePlay();
    else return;
    event.preventDefault();
  });

  onModel("msg:custom", (msg) => {
    if (!msg || typeof msg !== "object") return;
    if (msg.type === "frames") receiveFrames(msg);
    else if (msg.type === "legal") {
      takeLegal(msg, answersPlay(msg));
      draw();
    } else if (msg.type === "goto" && Number.isInteger(msg.step)) {
      const moment = { step: msg.step, sub: Number.isInteger(msg.sub) ? msg.sub : null, follow: msg.follow === true };
      if (live && (awaitingSeat() || !st.frames.length)) {
        // Before the frames it is in (a passed screen just opened): shown as they come, so
        // the newest of them is not drawn first.
        st.keep = moment;
        return;
      }
      show(moment.sub === null ? lastFrameOf(moment.step) : findFrame(moment.step, moment.sub));
      if (moment.follow) followOn();
    }
    else if (msg.type === "show" && Number.isInteger(msg.index)) show(msg.index);
  });
  /** Forget every frame held (another seat's, or a screen being passed on). */
  function dropFrames(keepMoment) {
    const shown = st.frames[st.index];
    st.keep = keepMoment && shown ? { step: shown.step, sub: shown.sub } : keepMoment ? st.keep : null;
    stopTimer();
    st.following = st.playing = false;
    st.frames = [];
    st.index = 0;
    st.shown = null;
    st.logFrom = 0;
    st.more = null;
    reindex();
  }
  onModel("change:seat", () => {
    // Drop the old seat's frames; remember the moment shown to return to it.
    if (passing() || st.coverDue) passChanged();
    else {
      if (awaitingSeat() && st.frames.length) dropFrames(true);
      draw();
    }
  });
  onModel("change:pass_to", passChanged);

  /**
   * Python passed the screen on (`pass_to` and the next `seat` come in one update), or the next
   * player opened it. The last player first watches what they were sent play out at its beats,
   * in their own view: their move, then each bot's answer (the page holds nothing of the next
   * seat, whose frames come only once that player opens the screen). Then the cover.
   */
  function passChanged() {
    if (!passing()) {
      // Opened (from another display of the widget) before this one covered: the last
      // player's view goes before the next one's frames come.
      if (st.coverDue) coverNow(false);
      draw();
      return;
    }
    if (st.coverDue) return; // the other half of the same update
    if (live && st.synced && st.frames.length && Number.isInteger(st.framesSeat)) {
      st.coverDue = true;
      st.coverFocus = root.contains(document.activeElement) || (st.pending && st.playFocus);
      draw(); // the view still on the screen is the last player's: their seat, their label
      return;
    }
    coverNow(true);
  }

  function stopCoverTimer() {
    if (st.coverTimer !== null) clearTimeout(st.coverTimer);
    st.coverTimer = null;
  }

  /** The cover goes up once the newest frame held has been on the screen a beat ("Skip to
   * now" gets there at once); a player who steps back keeps it away until they come back. */
  function awaitCover() {
    if (st.playing || st.following || !atEnd()) {
      stopCoverTimer();
      return;
    }
    if (st.coverTimer !== null) return;
    st.coverTimer = setTimeout(() => {
      st.coverTimer = null;
      coverNow(true);
    }, Math.max(0, st.speed - (Date.now() - st.beatAt)));
  }

  /** Nothing of the last player's view stays in the page: no frame, no board drawn, no log. */
  function coverNow(focusCover) {
    // The focus is in the widget, or was when the screen was passed and has only fallen back to
    // what holds the widget since (the control played with went away under it; the notebook).
    const active = document.activeElement;
    const focused = root.contains(active) || (st.coverDue && st.coverFocus && (!active || active.contains(root)));
    st.coverDue = false;
    stopCoverTimer();
    dropFrames(false);
    remountBoard();
    draw();
    // Keyboard users land on the cover's button (never taken from another cell's focus).
    if (focusCover && covered() && focused && document.activeElement !== passBtn) passBtn.focus({ preventScroll: true });
  }
  for (const name of ["seat_names", "bot_seats", "settings", "lock_seat", "replay", "seats"]) onModel(`change:${name}`, draw);
  onModel("change:cursor", () => {
    st.cursorAhead = null;
    // The update after a move's answer: already drawn with it.
    if (cursorOf() === st.drawnCursor) return;
    // A cursor past the frames held comes just before their `frames` message (a new match,
    // a seat's frames): that message draws them. Drawing now would show the last frame held
    // as left behind ("Continue from here") for a moment.
    const last = st.frames[st.frames.length - 1];
    if (st.synced && !awaitingSeat() && !covered() && last && cursorOf() > last.step) return;
    draw();
  });
  // A refusal (of this display's play or another's) does not end the wait: the `legal` answering
  // the play does.
  onModel("change:error", draw);

  // A saved notebook has no kernel to answer `hello`: draw the frame it stored.
  const current = model.get("current");
  if (current && typeof current === "object" && "view" in current) {
    st.frames = [current];
    reindex();
  }
  draw();
  if (live) {
    try {
      model.send({ type: "hello" });
    } catch (err) {
      // A saved notebook opened without a kernel: the stored frame stays on screen.
      console.warn("tabletop_widgets: no kernel to ask for the frames", err);
    }
  }

  return () => {
    stopTimer();
    stopCoverTimer();
    stopSpeakTimer();
    stopPendingTimer();
    if (st.scrollFrame !== null) cancelFrame(st.scrollFrame);
    if (logResize) logResize.disconnect();
    for (const [target, type, fn] of domListeners) target.removeEventListener(type, fn);
    domListeners.length = 0;
    for (const [name, fn] of modelListeners) model.off(name, fn);
    modelListeners.length = 0;
    if (board && typeof board.destroy === "function") board.destroy();
    root.remove();
  };
}
