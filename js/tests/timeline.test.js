import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { DEFAULT_SPEED, PENDING_DRAW_MS, SPEAK_SETTLE_MS, applyPatch, createGameWidget, decodeFrames, mountStatic } from "../src/timeline.js";
import generic, { mountGeneric } from "../src/generic.js";
import { fakeModel as sharedFakeModel } from "./fake_model.js";

/** The model of a toy game, both seats played from the page. */
function fakeModel(traits = {}) {
  const values = {
    game: "toy-fifteen",
    seat_names: ["Ann", "Bob"],
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

const frame = (step, sub, caption, last, view = {}) => ({ step, sub, caption, kind: "test", data: {}, view, last });

/** Set-up, step 1 with three sub-steps (a cascade), step 2 with one. */
const FRAMES = [
  frame(0, 0, "Set-up.", true, { pile: [] }),
  frame(1, 0, "Ann plays a 5.", false, { pile: [5] }),
  frame(1, 1, "The pile busts.", false, { pile: [] }),
  frame(1, 2, "Ann draws a card.", true, { pile: [] }),
  frame(2, 0, "Bob plays a 3.", true, { pile: [3] }),
];

let el;
let cleanups;

function render(widget = generic, traits = {}) {
  const model = fakeModel(traits);
  const cleanup = widget.render({ model, el });
  cleanups.push(cleanup);
  return { model, cleanup, root: el.querySelector(".tw-root") };
}

function load(model, { cursor = 2, legal = ["play 1", "play 2"], toMove = 0, frames = FRAMES } = {}) {
  model.set("cursor", cursor);
  model.deliver({ type: "frames", from: 0, frames });
  model.deliver({ type: "legal", step: cursor, to_move: toMove, actions: legal });
  model.deliver({ type: "goto", step: cursor });
}

const $ = (sel) => el.querySelector(sel);
const caption = () => $(".tw-caption").textContent;
const stepText = () => $(".tw-step").textContent;
const click = (sel) => $(sel).dispatchEvent(new MouseEvent("click", { bubbles: true }));
const key = (k, target = $(".tw-root")) => {
  const event = new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true });
  target.dispatchEvent(event);
  return event;
};
const kernelMessages = (model) => model.sent.filter((m) => m.type !== "hello");
/** The id of the last play sent: Python's answers to it echo it. */
const playId = (model) => model.sent.filter((m) => m.type === "play").at(-1).id;

beforeEach(() => {
  el = document.createElement("div");
  document.body.append(el);
  cleanups = [];
});

afterEach(() => {
  cleanups.forEach((c) => c());
  el.remove();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("rendering and the protocol", () => {
  test("the root suppresses JupyterLab shortcuts, is focusable and says hello", () => {
    const { model, root } = render();
    expect(root.hasAttribute("data-lm-suppress-shortcuts")).toBe(true);
    expect(root.getAttribute("tabindex")).toBe("0");
    expect(model.sent).toEqual([{ type: "hello" }]);
    expect(caption()).toMatch(/Waiting/);
  });

  test("frames, legal and goto show the cursor's last frame with its caption", () => {
    vi.useFakeTimers();
    const { model } = render();
    load(model);
    expect(caption()).toBe("Bob plays a 3.");
    expect(stepText()).toBe("step 2 / 2");
    // Spoken once it has stayed: it came a moment after "Waiting for the kernel…".
    vi.advanceTimersByTime(SPEAK_SETTLE_MS);
    expect($("[aria-live=polite]").textContent).toBe("Bob plays a 3.");
    model.deliver({ type: "goto", step: 1 });
    expect(caption()).toBe("Ann draws a card.");
    expect(stepText()).toBe("step 1 / 2 · 3/3");
  });

  test("buttons, the slider and the keys step through frames without a kernel message", () => {
    const { model } = render();
    load(model);
    click(".tw-first");
    expect(caption()).toBe("Set-up.");
    expect($(".tw-prev").disabled).toBe(true);
    click(".tw-next");
    expect(caption()).toBe("Ann plays a 5.");
    expect(stepText()).toBe("step 1 / 2 · 1/3");
    click(".tw-last");
    expect(caption()).toBe("Bob plays a 3.");
    expect($(".tw-next").disabled).toBe(true);
    click(".tw-prev");
    expect(caption()).toBe("Ann draws a card.");

    const slider = $(".tw-slider");
    expect(slider.max).toBe(String(FRAMES.length - 1));
    slider.value = "2";
    slider.dispatchEvent(new Event("input", { bubbles: true }));
    expect(caption()).toBe("The pile busts.");

    expect(key("Home").defaultPrevented).toBe(true);
    expect(caption()).toBe("Set-up.");
    key("ArrowRight");
    expect(caption()).toBe("Ann plays a 5.");
    key("ArrowLeft");
    expect(caption()).toBe("Set-up.");
    key("End");
    expect(caption()).toBe("Bob plays a 3.");
    // The slider keeps its own arrow keys.
    expect(key("ArrowLeft", slider).defaultPrevented).toBe(false);
    expect(caption()).toBe("Bob plays a 3.");
    expect(kernelMessages(model)).toEqual([]);
  });

  test("play/pause steps at the chosen speed and Space toggles it", () => {
    vi.useFakeTimers();
    const { model } = render();
    load(model);
    click(".tw-first");
    const speed = $(".tw-speed");
    speed.value = "350";
    speed.dispatchEvent(new Event("change", { bubbles: true }));
    expect(key(" ").defaultPrevented).toBe(true);
    expect($(".tw-play").getAttribute("aria-label")).toBe("Pause");
    vi.advanceTimersByTime(350);
    expect(caption()).toBe("Ann plays a 5.");
    vi.advanceTimersByTime(350);
    expect(caption()).toBe("The pile busts.");
    key(" ");
    expect($(".tw-play").getAttribute("aria-label")).toBe("Play");
    vi.advanceTimersByTime(2000);
    expect(caption()).toBe("The pile busts.");
    click(".tw-play");
    vi.advanceTimersByTime(5000);
    expect(caption()).toBe("Bob plays a 3.");
    expect($(".tw-play").getAttribute("aria-label")).toBe("Play");
    expect(vi.getTimerCount()).toBe(0);
    expect(kernelMessages(model)).toEqual([]);
  });

  test("on the cursor's last frame the legal actions play at the cursor step", () => {
    const { model } = render();
    load(model);
    const buttons = [...el.querySelectorAll(".tw-actions button")];
    expect(buttons.map((b) => b.textContent)).toEqual(["play 1", "play 2"]);
    buttons[1].dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(kernelMessages(model)).toEqual([{ type: "play", action: "play 2", step: 2, id: expect.any(String) }]);
    // Elsewhere in the timeline nothing is playable.
    click(".tw-first");
    expect(el.querySelectorAll(".tw-actions button").length).toBe(0);
  });

  test("a play waits for Python's answer: a double click plays once", () => {
    vi.useFakeTimers();
    const { model } = render();
    load(model);
    const first = el.querySelector(".tw-actions button");
    first.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    first.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(kernelMessages(model)).toEqual([{ type: "play", action: "play 1", step: 2, id: expect.any(String) }]);
    // The page is left alone while the answer is on its way; a slow one gets the waiting board.
    expect(el.querySelectorAll(".tw-actions button").length).toBe(2);
    vi.advanceTimersByTime(PENDING_DRAW_MS);
    expect(el.querySelectorAll(".tw-actions button").length).toBe(0);
    first.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(kernelMessages(model)).toHaveLength(1);
    // A refused play is answered with the same legal actions: playable again.
    model.set("error", "Not now.");
    model.deliver({ type: "legal", step: 2, to_move: 0, actions: ["play 1", "play 2"], id: playId(model) });
    el.querySelectorAll(".tw-actions button")[1].dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(kernelMessages(model).at(-1)).toEqual({ type: "play", action: "play 2", step: 2, id: expect.any(String) });
    expect(kernelMessages(model)[0].id).not.toBe(kernelMessages(model).at(-1).id);
  });

  test("a move's answer, one frames message with legal then the cursor, is drawn once, at once, playable", () => {
    vi.useFakeTimers();
    const calls = [];
    let ctx;
    const widget = createGameWidget({
      name: "spy",
      mount: () => ({
        update(f, prev, c) {
          ctx = c;
          calls.push({ f, ctx: c, continueShown: !$(".tw-continue").hidden });
        },
      }),
    });
    const { model } = render(widget);
    load(model, { frames: FRAMES.slice(0, 4), cursor: 1, legal: ["play 3"], toMove: 1 });
    expect(ctx.play("play 3")).toBe(true);
    const before = calls.length;
    // Drawn as the frames come, with their cursor (no beat of the frame before), playable
    // again, never offering "Continue from here".
    model.deliver({ type: "frames", from: 4, frames: [FRAMES[4]], legal: { step: 2, to_move: 0, actions: ["play 1"] }, id: playId(model) });
    expect(calls.length).toBe(before + 1);
    expect(calls.at(-1).f).toEqual(FRAMES[4]);
    expect(calls.at(-1).ctx).toMatchObject({ cursor: 2, interactive: true, legal: ["play 1"], toMove: 0 });
    // The cursor update after it changes nothing on screen: no second draw.
    model.set("cursor", 2);
    expect(calls.length).toBe(before + 1);
    expect(calls.some((c) => c.continueShown)).toBe(false);
    vi.advanceTimersByTime(Math.max(PENDING_DRAW_MS * 2, SPEAK_SETTLE_MS));
    expect(calls.length).toBe(before + 1);
    expect(vi.getTimerCount()).toBe(0);
    // A cursor moved back over frames held is drawn at once, and "Continue from here" offered.
    model.set("cursor", 1);
    expect(calls.length).toBe(before + 2);
    expect(calls.at(-1).ctx).toMatchObject({ cursor: 1, interactive: false });
    expect(calls.at(-1).continueShown).toBe(true);
  });

  test("a cursor past the frames held waits for them: nothing is drawn as left behind", () => {
    const calls = [];
    const widget = createGameWidget({
      name: "spy",
      mount: () => ({ update: (f, prev, c) => calls.push({ f, cursor: c.cursor, continueShown: !$(".tw-continue").hidden }) }),
    });
    const { model } = render(widget, { settings: { animate: false } });
    load(model, { frames: FRAMES.slice(0, 4), cursor: 1, legal: [], toMove: 1 });
    const before = calls.length;
    model.set("cursor", 2);
    expect(calls.length).toBe(before);
    model.deliver({ type: "frames", from: 4, frames: [FRAMES[4]] });
    expect(calls.length).toBe(before + 1);
    expect(calls.at(-1)).toMatchObject({ f: FRAMES[4], cursor: 2, continueShown: false });
  });

  test("your move shows when its answer comes; a bot's answer in the same message gets a beat after it", () => {
    vi.useFakeTimers();
    const { model } = render();
    load(model, { frames: FRAMES.slice(0, 4), cursor: 1, legal: ["play 3"], toMove: 1 });
    el.querySelector(".tw-actions button").dispatchEvent(new MouseEvent("click", { bubbles: true }));
    const bot = frame(3, 0, "Ann plays a 1.", true, { pile: [3, 1] });
    model.deliver({ type: "frames", from: 4, frames: [FRAMES[4], bot], legal: { step: 3, to_move: 1, actions: ["play 7"] }, id: playId(model) });
    model.set("cursor", 3);
    expect(caption()).toBe("Bob plays a 3.");
    vi.advanceTimersByTime(DEFAULT_SPEED - 1);
    expect(caption()).toBe("Bob plays a 3.");
    vi.advanceTimersByTime(1);
    expect(caption()).toBe("Ann plays a 1.");
    expect([...el.querySelectorAll(".tw-actions button")].map((b) => b.textContent)).toEqual(["play 7"]);
  });

  test("a move sent before the bots' answers is drawn at once, at its step, not playable; their answers then get a beat after it", () => {
    vi.useFakeTimers();
    const calls = [];
    const widget = createGameWidget({
      name: "spy",
      mount: () => ({ update: (f, prev, c) => calls.push({ f, ctx: c, continueShown: !$(".tw-continue").hidden }) }),
    });
    const { model } = render(widget);
    load(model, { frames: FRAMES.slice(0, 4), cursor: 1, legal: ["play 3"], toMove: 1 });
    calls.at(-1).ctx.play("play 3");
    const before = calls.length;
    // The move alone (no `legal`): drawn at once with its step as the cursor, nothing playable.
    model.deliver({ type: "frames", from: 4, frames: [FRAMES[4]], id: playId(model) });
    expect(calls.length).toBe(before + 1);
    expect(calls.at(-1)).toMatchObject({ f: FRAMES[4], continueShown: false, ctx: { cursor: 2, interactive: false, legal: [] } });
    expect(calls.at(-1).ctx.play("play 1")).toBe(false);
    // The bots' answers with `legal` a moment later: the move keeps its beat, then they follow.
    const bot = frame(3, 0, "Ann plays a 1.", true, { pile: [3, 1] });
    vi.advanceTimersByTime(5);
    model.deliver({ type: "frames", from: 5, frames: [bot], legal: { step: 3, to_move: 1, actions: ["play 7"] }, id: playId(model) });
    model.set("cursor", 3);
    expect(caption()).toBe("Bob plays a 3.");
    vi.advanceTimersByTime(DEFAULT_SPEED - 6);
    expect(caption()).toBe("Bob plays a 3.");
    vi.advanceTimersByTime(1);
    expect(caption()).toBe("Ann plays a 1.");
    expect(calls.at(-1).ctx).toMatchObject({ cursor: 3, interactive: true, legal: ["play 7"] });
    expect(model.get("current")).toEqual(bot);
  });

  test("without animation a move sent before the bots' answers shows at once and their last frame when it comes", () => {
    const calls = [];
    const widget = createGameWidget({
      name: "spy",
      mount: () => ({ update: (f, prev, c) => calls.push({ f, ctx: c, continueShown: !$(".tw-continue").hidden }) }),
    });
    const { model } = render(widget, { settings: { animate: false } });
    load(model, { frames: FRAMES.slice(0, 4), cursor: 1, legal: ["play 3"], toMove: 1 });
    calls.at(-1).ctx.play("play 3");
    model.deliver({ type: "frames", from: 4, frames: [FRAMES[4]], id: playId(model) });
    expect(calls.at(-1)).toMatchObject({ f: FRAMES[4], continueShown: false, ctx: { cursor: 2, interactive: false } });
    const bots = [frame(3, 0, "Ann plays a 1.", true, { pile: [3, 1] }), frame(4, 0, "Bob plays a 2.", true, { pile: [3, 1, 2] })];
    model.deliver({ type: "frames", from: 5, frames: bots, legal: { step: 4, to_move: 0, actions: ["play 7"] }, id: playId(model) });
    expect(calls.at(-1)).toMatchObject({ f: bots[1], continueShown: false, ctx: { cursor: 4, interactive: true, legal: ["play 7"] } });
    expect($(".tw-step").textContent).toBe("step 4 / 4");
  });

  test("a move sent ahead of the rest of its step is drawn at once, counted with them; they follow at its beat", () => {
    vi.useFakeTimers();
    const calls = [];
    const widget = createGameWidget({
      name: "spy",
      mount: () => ({ update: (f, prev, c) => calls.push({ f, ctx: c }) }),
    });
    const { model } = render(widget);
    // Step 1 played from the page: its move leaves first (`more`: two frames of it follow).
    load(model, { frames: FRAMES.slice(0, 1), cursor: 0, legal: ["play 5"], toMove: 0 });
    calls.at(-1).ctx.play("play 5");
    model.deliver({ type: "frames", from: 1, frames: [FRAMES[1]], more: 2, id: playId(model) });
    expect(calls.at(-1)).toMatchObject({ f: FRAMES[1], ctx: { cursor: 1, interactive: false } });
    // The counter counts the frames on their way: it reads the same when they come.
    expect(stepText()).toBe("step 1 / 1 · 1/3");
    vi.advanceTimersByTime(3);
    model.deliver({ type: "frames", from: 2, frames: FRAMES.slice(2, 4), legal: { step: 1, to_move: 1, actions: [] }, id: playId(model) });
    expect(calls.at(-1).f).toBe(FRAMES[1]);
    expect(stepText()).toBe("step 1 / 1 · 1/3");
    vi.advanceTimersByTime(DEFAULT_SPEED - 3);
    expect(caption()).toBe("The pile busts.");
    expect(stepText()).toBe("step 1 / 1 · 2/3");
    vi.advanceTimersByTime(DEFAULT_SPEED);
    expect(caption()).toBe("Ann draws a card.");
    expect(model.get("current")).toEqual(FRAMES[3]);
    // A frames message without `more` counts only what it holds.
    model.deliver({ type: "frames", from: 4, frames: [FRAMES[4]] });
    vi.advanceTimersByTime(DEFAULT_SPEED);
    expect(stepText()).toBe("step 2 / 2");
  });

  test("without animation a move sent ahead of its step shows at once, then the step's last frame", () => {
    const calls = [];
    const widget = createGameWidget({
      name: "spy",
      mount: () => ({ update: (f, prev, c) => calls.push({ f, ctx: c }) }),
    });
    const { model } = render(widget, { settings: { animate: false } });
    load(model, { frames: FRAMES.slice(0, 1), cursor: 0, legal: ["play 5"], toMove: 0 });
    calls.at(-1).ctx.play("play 5");
    model.deliver({ type: "frames", from: 1, frames: [FRAMES[1]], more: 2, id: playId(model) });
    expect(calls.at(-1).f).toBe(FRAMES[1]);
    model.deliver({ type: "frames", from: 2, frames: FRAMES.slice(2, 4), legal: { step: 1, to_move: 0, actions: ["play 1"] }, id: playId(model) });
    expect(calls.at(-1)).toMatchObject({ f: FRAMES[3], ctx: { cursor: 1, interactive: true, legal: ["play 1"] } });
    expect(stepText()).toBe("step 1 / 1 · 3/3");
  });

  test("legal actions of another step, or none, make no frame interactive", () => {
    const { model } = render();
    load(model, { legal: [] });
    expect(el.querySelectorAll(".tw-actions button").length).toBe(0);
    model.deliver({ type: "legal", step: 1, to_move: 0, actions: ["play 4"] });
    expect(el.querySelectorAll(".tw-actions button").length).toBe(0);
  });

  test("the renderer gets the frame, the previous frame and the context", () => {
    const calls = [];
    const widget = createGameWidget({
      name: "spy",
      css: ".spy { color: red; }",
      mount: () => ({ update: (f, prev, ctx) => calls.push({ f, prev, ctx }), destroy() {} }),
    });
    const { model } = render(widget, { seat: 1, bot_seats: [0] });
    load(model, { legal: ["play 6"], toMove: 1 });
    const last = calls[calls.length - 1];
    expect(last.f).toEqual(FRAMES[4]);
    expect(last.ctx).toMatchObject({
      seat: 1,
      seatNames: ["Ann", "Bob"],
      interactive: true,
      legal: ["play 6"],
      cursor: 2,
      toMove: 1,
      botSeats: [0],
      live: true,
    });
    expect(last.ctx.model).toBe(model);
    click(".tw-prev");
    const back = calls[calls.length - 1];
    expect(back.f).toEqual(FRAMES[3]);
    expect(back.prev).toEqual(FRAMES[4]);
    expect(back.ctx.interactive).toBe(false);
    expect(back.ctx.play("play 6")).toBe(false);
    expect(kernelMessages(model)).toEqual([]);
    expect(el.querySelector("style").textContent).toContain(".spy { color: red; }");
  });

  test("the seat selector sets the seat trait; the view says what it shows", () => {
    const { model } = render(generic, { bot_seats: [1] });
    load(model);
    const select = $(".tw-seat");
    expect([...select.options].map((o) => o.textContent)).toEqual(["All-seeing view", "Ann", "Bob (bot)"]);
    expect($(".tw-view-note").textContent).toBe("Every hidden card and choice shown.");
    select.value = "1";
    select.dispatchEvent(new Event("change", { bubbles: true }));
    expect(model.get("seat")).toBe(1);
    expect(model.saves).toBe(1);
    expect($(".tw-view-note").textContent).toBe("Only what Bob may know.");
    // The all-seeing view asks first: cancelled, nothing changes; confirmed, it shows.
    select.value = "";
    select.dispatchEvent(new Event("change", { bubbles: true }));
    expect(model.get("seat")).toBe(1);
    expect(select.value).toBe("1");
    expect($(".tw-see-all").hidden).toBe(false);
    click(".tw-see-all-no");
    expect($(".tw-see-all").hidden).toBe(true);
    expect(model.get("seat")).toBe(1);
    select.value = "";
    select.dispatchEvent(new Event("change", { bubbles: true }));
    click(".tw-see-all-yes");
    expect(model.get("seat")).toBe(null);
    expect($(".tw-see-all").hidden).toBe(true);
    model.set("seat", 0); // from Python
    expect(select.value).toBe("0");
  });

  test("the seat selector follows the seats' names and bots set after the frames are drawn", () => {
    const { model } = render(generic, { bot_seats: [1] });
    load(model);
    const options = () => [...$(".tw-seat").options].map((o) => [o.value, o.textContent]);
    expect(options()).toEqual([["", "All-seeing view"], ["0", "Ann"], ["1", "Bob (bot)"]]);
    model.set("seat_names", ["Ann", "Bea"]);
    expect(options()).toEqual([["", "All-seeing view"], ["0", "Ann"], ["1", "Bea (bot)"]]);
    model.set("bot_seats", [0]);
    expect(options()).toEqual([["", "All-seeing view"], ["0", "Ann (bot)"], ["1", "Bea"]]);
    // Stepping through the frames leaves the options as they are.
    const before = [...$(".tw-seat").options];
    key("ArrowLeft");
    expect([...$(".tw-seat").options]).toEqual(before);
    expect(before.every((o) => o.isConnected)).toBe(true);
  });

  test("a locked screen does not offer the all-seeing view", () => {
    const { model } = render(generic, { seat: 1, lock_seat: true });
    load(model);
    expect([...$(".tw-seat").options].map((o) => o.textContent)).toEqual(["Ann", "Bob"]);
    model.set("lock_seat", false);
    expect([...$(".tw-seat").options].map((o) => o.textContent)).toEqual(["All-seeing view", "Ann", "Bob"]);
  });

  test("pass-and-play: a cover between players, no frame held, ready asks Python, the next player follows", () => {
    vi.useFakeTimers();
    const { model } = render(generic, { seat: 0, lock_seat: true, seats: [0, 1] });
    load(model);
    expect($(".tw-pass").hidden).toBe(true);
    expect(el.querySelectorAll(".tw-log-entry").length).toBe(5);
    // Python covers the screen and gives it to Bob in one update: Ann's newest frame keeps its
    // beat, in her view, then the cover comes and the focus goes to it
    $(".tw-first").focus();
    model.set("pass_to", 1);
    model.set("seat", 1);
    expect($(".tw-pass").hidden).toBe(true);
    expect(caption()).toBe("Bob plays a 3.");
    expect($(".tw-seat").value).toBe("0");
    vi.advanceTimersByTime(DEFAULT_SPEED);
    expect(document.activeElement).toBe($(".tw-pass-ready"));
    expect($(".tw-pass").hidden).toBe(false);
    expect($(".tw-pass-text").textContent).toBe("Pass the screen to Bob.");
    expect($("[aria-live=polite]").textContent).toBe("Pass the screen to Bob.");
    expect(el.querySelectorAll(".tw-log-entry").length).toBe(0);
    expect(caption()).toBe("");
    expect(el.querySelector(".tw-board").textContent).not.toMatch(/pile/); // the view drawn is gone
    click(".tw-pass-ready");
    expect(kernelMessages(model)).toEqual([{ type: "ready" }]);
    model.set("pass_to", null);
    model.deliver({ type: "frames", from: 0, frames: FRAMES });
    model.deliver({ type: "goto", step: 1, sub: 0, follow: true });
    expect($(".tw-pass").hidden).toBe(true);
    expect(caption()).toBe("Ann plays a 5.");
    vi.advanceTimersByTime(DEFAULT_SPEED * 3);
    expect(caption()).toBe("Bob plays a 3.");
  });

  test("a game with nothing hidden says so instead of promising hidden cards", () => {
    const open = createGameWidget({ name: "open", mount: () => ({ update() {}, destroy() {} }), hidden: false });
    const { model } = render(open);
    load(model);
    expect($(".tw-view-note").textContent).toBe("Nothing is hidden in this game.");
    model.set("seat", 1);
    expect($(".tw-view-note").textContent).toBe("The same board; clicks play for Bob.");
    expect($(".tw-view-note").textContent).not.toMatch(/hidden card/);
  });

  test("lock_seat disables the seat selector; Python may unlock it", () => {
    const { model } = render(generic, { seat: 1, lock_seat: true });
    load(model);
    const select = $(".tw-seat");
    expect(select.disabled).toBe(true);
    expect(select.value).toBe("1");
    expect(select.title).toMatch(/locked/);
    model.set("lock_seat", false);
    expect(select.disabled).toBe(false);
    const { model: free } = render(generic, { seat: 1 });
    load(free);
    expect(el.querySelectorAll(".tw-seat")[1].disabled).toBe(false);
  });

  test("a seat change hides the old seat's frames until the new seat's frames arrive", () => {
    const calls = [];
    const widget = createGameWidget({
      name: "spy",
      mount: () => ({ update: (f, prev, ctx) => calls.push({ f, seat: ctx.seat }), destroy() {} }),
    });
    const { model } = render(widget, { seat: null });
    load(model);
    click(".tw-first");
    click(".tw-next"); // step 1, sub 0
    calls.length = 0;
    model.set("seat", 1); // from Python (or the selector): the frames held are the all-seeing ones
    expect(calls).toEqual([]); // nothing drawn under Bob's label
    expect($(".tw-board").classList.contains("tw-awaiting")).toBe(true);
    expect(caption()).toMatch(/Waiting for this view's frames/);
    expect($(".tw-next").disabled).toBe(true);
    // A later part of the old timeline is not drawn either; the full reset is.
    model.deliver({ type: "frames", from: 5, frames: [frame(3, 0, "old seat", true)] });
    expect(calls).toEqual([]);
    const bobs = FRAMES.map((f) => ({ ...f, caption: `Bob: ${f.caption}` }));
    model.deliver({ type: "frames", from: 0, frames: bobs });
    expect(caption()).toBe("Bob: Ann plays a 5."); // the same moment as before the switch
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((c) => c.seat === 1 && c.f.caption.startsWith("Bob: "))).toBe(true);
    expect($(".tw-board").classList.contains("tw-awaiting")).toBe(false);
  });

  test("the selector's seat change waits for Python; a refused one gets its frames back", () => {
    const { model } = render(generic, { seat: 0 });
    load(model);
    const select = $(".tw-seat");
    select.value = "";
    select.dispatchEvent(new Event("change", { bubbles: true }));
    click(".tw-see-all-yes");
    expect(caption()).toMatch(/Waiting for this view's frames/);
    model.set("seat", 0); // Python refused and put the seat back, then resends the frames
    model.deliver({ type: "frames", from: 0, frames: FRAMES });
    expect(caption()).toBe("Bob plays a 3.");
  });

  test("a reset keeps showing the same moment", () => {
    const { model } = render();
    load(model);
    click(".tw-first");
    click(".tw-next");
    click(".tw-next"); // step 1, sub 1
    model.deliver({ type: "frames", from: 0, frames: FRAMES.map((f) => ({ ...f, caption: `seat view: ${f.caption}` })) });
    expect(caption()).toBe("seat view: The pile busts.");
  });
});

describe("new frames", () => {
  test("a viewer at the end follows a new cascade step by step", () => {
    vi.useFakeTimers();
    const { model } = render();
    load(model, { frames: FRAMES.slice(0, 1), cursor: 0 });
    vi.advanceTimersByTime(DEFAULT_SPEED); // the set-up has been on screen a while
    model.deliver({ type: "frames", from: 1, frames: FRAMES.slice(1, 4) });
    expect(caption()).toBe("Ann plays a 5.");
    vi.advanceTimersByTime(DEFAULT_SPEED);
    expect(caption()).toBe("The pile busts.");
    // A bot's answer arriving meanwhile joins the same run.
    model.deliver({ type: "frames", from: 4, frames: FRAMES.slice(4) });
    expect(caption()).toBe("The pile busts.");
    vi.advanceTimersByTime(DEFAULT_SPEED);
    expect(caption()).toBe("Ann draws a card.");
    vi.advanceTimersByTime(DEFAULT_SPEED);
    expect(caption()).toBe("Bob plays a 3.");
    vi.advanceTimersToNextFrame(); // the log scrolls to the entry drawn (no beat is left)
    expect(vi.getTimerCount()).toBe(0);
  });

  test("a bot's answer arriving just after your move waits until your move had its beat", () => {
    vi.useFakeTimers();
    const { model } = render();
    const moves = [frame(0, 0, "Set-up.", true), frame(1, 0, "Ann plays a 5.", true), frame(2, 0, "Bob plays a 3.", true), frame(3, 0, "Ann plays a 1.", true)];
    load(model, { frames: moves.slice(0, 1), cursor: 0 });
    vi.advanceTimersByTime(10_000);
    model.deliver({ type: "frames", from: 1, frames: [moves[1]] }); // your move: shown at once
    expect(caption()).toBe("Ann plays a 5.");
    vi.advanceTimersByTime(5);
    model.deliver({ type: "frames", from: 2, frames: [moves[2]] }); // the bot answers 5 ms later
    expect(caption()).toBe("Ann plays a 5.");
    vi.advanceTimersByTime(DEFAULT_SPEED - 10);
    expect(caption()).toBe("Ann plays a 5.");
    vi.advanceTimersByTime(5);
    expect(caption()).toBe("Bob plays a 3.");
    expect($(".tw-skip").disabled).toBe(true);
    // a slower speed for reading; skip to now jumps over the queued beats
    const speed = $(".tw-speed");
    speed.value = "5000";
    speed.dispatchEvent(new Event("change", { bubbles: true }));
    model.deliver({ type: "frames", from: 3, frames: [moves[3]] });
    expect(caption()).toBe("Bob plays a 3.");
    expect($(".tw-skip").disabled).toBe(false);
    // the match is at Ann's move: Bob's step, shown at its beat, is not one to continue from
    model.set("cursor", 3);
    expect($(".tw-continue").hidden).toBe(true);
    vi.advanceTimersByTime(DEFAULT_SPEED);
    expect(caption()).toBe("Bob plays a 3.");
    expect($(".tw-continue").hidden).toBe(true);
    click(".tw-skip");
    expect(caption()).toBe("Ann plays a 1.");
    vi.advanceTimersToNextFrame(); // the log scrolls to the entry drawn (no beat is left)
    expect(vi.getTimerCount()).toBe(0);
  });

  test("without animation the viewer jumps to the new end", () => {
    const { model } = render(generic, { settings: { animate: false } });
    load(model, { frames: FRAMES.slice(0, 1), cursor: 0 });
    model.deliver({ type: "frames", from: 1, frames: FRAMES.slice(1) });
    expect(caption()).toBe("Bob plays a 3.");
  });

  test("frames from i replace everything after i; a viewer further back stays put", () => {
    const { model } = render();
    load(model);
    click(".tw-first");
    model.deliver({ type: "frames", from: 4, frames: [frame(2, 0, "Bob plays a 1.", true)] });
    expect(caption()).toBe("Set-up.");
    expect($(".tw-slider").max).toBe("4");
    click(".tw-last");
    expect(caption()).toBe("Bob plays a 1.");
    // A rewound future dropped: the tail goes, the new step replaces it.
    model.deliver({ type: "frames", from: 1, frames: [frame(1, 0, "Ann plays a 2.", true)] });
    expect($(".tw-slider").max).toBe("1");
    expect(stepText()).toBe("step 1 / 1");
    expect(caption()).toBe("Ann plays a 2.");
  });

  test("'Continue from here' appears on the last frame of another step and sends goto", () => {
    const { model } = render();
    load(model);
    expect($(".tw-continue").hidden).toBe(true);
    click(".tw-prev"); // last frame of step 1
    expect($(".tw-continue").hidden).toBe(false);
    click(".tw-continue");
    expect(kernelMessages(model)).toEqual([{ type: "goto", step: 1 }]);
    click(".tw-prev"); // a middle sub-step: play cannot continue there
    expect($(".tw-continue").hidden).toBe(true);
  });

  test("a locked player's screen steps back through its frames but never offers 'Continue from here'", () => {
    const { model } = render(generic, { seat: 0, lock_seat: true });
    load(model);
    click(".tw-prev"); // the last frame of step 1: an unlocked widget offers to continue there
    expect(caption()).toBe("Ann draws a card.");
    expect($(".tw-continue").hidden).toBe(true);
    expect($(".tw-root").classList.contains("tw-may-continue")).toBe(false);
    expect(kernelMessages(model)).toEqual([]);
    // Python may unlock it (an analysis widget): rewinding is offered again
    model.set("lock_seat", false);
    expect($(".tw-continue").hidden).toBe(false);
  });

  test("goto with a sub-step shows that frame of the step; without one, the step's last", () => {
    const { model } = render();
    load(model);
    model.deliver({ type: "goto", step: 1, sub: 1 });
    expect(caption()).toBe("The pile busts.");
    expect(stepText()).toBe("step 1 / 2 · 2/3");
    model.deliver({ type: "goto", step: 1, sub: 0 });
    expect(caption()).toBe("Ann plays a 5.");
    model.deliver({ type: "goto", step: 1 });
    expect(caption()).toBe("Ann draws a card.");
  });

  test("a replay steps freely but offers no action and no 'Continue from here'", () => {
    const { model } = render(generic, { replay: true });
    load(model);
    expect($(".tw-replay-note").hidden).toBe(false);
    expect(el.querySelectorAll(".tw-actions button").length).toBe(0);
    click(".tw-prev"); // the last frame of another step: a live widget offers to continue there
    expect(caption()).toBe("Ann draws a card.");
    expect($(".tw-continue").hidden).toBe(true);
    click(".tw-first");
    click(".tw-play");
    expect(kernelMessages(model)).toEqual([]);
    // Python may end the replay: the same frames become playable
    model.set("replay", false);
    click(".tw-last");
    expect($(".tw-replay-note").hidden).toBe(true);
    expect(el.querySelectorAll(".tw-actions button").length).toBe(2);
  });

  test("the log lists every frame, marks the shown one and jumps where clicked or walked", () => {
    const { model } = render();
    load(model);
    const entries = () => [...el.querySelectorAll(".tw-log-entry")];
    expect(entries().map((e) => e.textContent)).toEqual(["0.Set-up.", "1.Ann plays a 5.", "The pile busts.", "Ann draws a card.", "2.Bob plays a 3."]);
    const current = () => el.querySelectorAll("[aria-current=step]");
    expect(current().length).toBe(1);
    expect(current()[0]).toBe(entries()[4]);
    expect(entries().map((e) => e.tabIndex)).toEqual([-1, -1, -1, -1, 0]);
    entries()[2].dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(caption()).toBe("The pile busts.");
    expect(current()[0]).toBe(entries()[2]);
    entries()[2].focus();
    key("ArrowUp", entries()[2]);
    expect(caption()).toBe("Ann plays a 5.");
    expect(document.activeElement).toBe(entries()[1]);
    key("ArrowDown", entries()[1]);
    key("ArrowDown", entries()[2]);
    expect(caption()).toBe("Ann draws a card.");
    expect(kernelMessages(model)).toEqual([]);
    // a replaced future is replaced in the log too
    model.deliver({ type: "frames", from: 4, frames: [frame(2, 0, "Bob plays a 1.", true)] });
    expect(entries().map((e) => e.textContent).at(-1)).toBe("2.Bob plays a 1.");
    expect(entries().length).toBe(5);
    // a seat change empties the log until that seat's frames come
    model.set("seat", 1);
    expect(entries().length).toBe(0);
  });

  test("'Continue from here' and 'Skip to now' keep their slots in a live widget; a replay has neither", () => {
    const { model } = render();
    load(model);
    const root = $(".tw-root");
    expect(root.classList.contains("tw-kernel")).toBe(true);
    expect(root.classList.contains("tw-may-continue")).toBe(true);
    expect($(".tw-continue").hidden).toBe(true);
    // neither is in the timeline bar, whose slider they would narrow
    expect($(".tw-bar .tw-continue, .tw-bar .tw-skip")).toBe(null);
    model.set("replay", true);
    expect(root.classList.contains("tw-kernel")).toBe(false);
    expect(root.classList.contains("tw-may-continue")).toBe(false);
  });

  test("the error banner shows the error trait and dismissing clears it", () => {
    const { model } = render();
    load(model);
    expect($(".tw-error").hidden).toBe(true);
    model.set("error", "'play 9' is not a legal action.");
    expect($(".tw-error").hidden).toBe(false);
    expect($(".tw-error-text").textContent).toBe("'play 9' is not a legal action.");
    click(".tw-error-close");
    expect(model.get("error")).toBe("");
    expect(model.saves).toBe(1);
    expect($(".tw-error").hidden).toBe(true);
  });

  test("the keyboard's focus on a control the next frame removes stays in the widget", () => {
    // Play turn goes away once the turn is played: the focus must not fall back to the page.
    const widget = createGameWidget({
      name: "spy",
      mount: (boardEl) => ({
        update: (f, prev, c) => {
          boardEl.replaceChildren();
          if (c.interactive) boardEl.append(Object.assign(document.createElement("button"), { className: "go", textContent: "Play" }));
        },
      }),
    });
    const { model, root } = render(widget);
    load(model, { frames: FRAMES.slice(0, 1), cursor: 0, legal: ["play 5"], toMove: 0 });
    const button = $(".go");
    button.focus();
    expect(document.activeElement).toBe(button);
    model.deliver({ type: "frames", from: 1, frames: FRAMES.slice(1, 4), legal: { step: 1, to_move: 1, actions: [] } });
    expect($(".go")).toBe(null);
    expect(document.activeElement).toBe(root);
    // Focus elsewhere in the page is never taken.
    const outside = document.body.appendChild(document.createElement("input"));
    outside.focus();
    model.deliver({ type: "frames", from: 4, frames: [FRAMES[4]] });
    expect(document.activeElement).toBe(outside);
    outside.remove();
  });

  test("a renderer that throws is reported and the controls keep working", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const widget = createGameWidget({
      name: "broken",
      mount: () => ({
        update(f) {
          if (f.step === 1) throw new Error("no such card");
        },
      }),
    });
    const { model } = render(widget);
    load(model);
    click(".tw-prev");
    expect($(".tw-error-text").textContent).toMatch(/no such card/);
    click(".tw-last");
    expect(caption()).toBe("Bob plays a 3.");
    expect($(".tw-error").hidden).toBe(true);
  });

  test("a saved notebook without a kernel draws the current frame", () => {
    const { model } = render(generic, { current: FRAMES[3], cursor: 1 });
    expect(caption()).toBe("Ann draws a card.");
    expect($(".tw-generic td").textContent).toBe("[]");
    load(model, { cursor: 1 });
    expect(caption()).toBe("Ann draws a card.");
  });

  test("with no kernel to answer hello the stored frame stays on screen", () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const model = fakeModel({ current: FRAMES[4], cursor: 2 });
    model.send = () => {
      throw new Error("no kernel");
    };
    cleanups.push(generic.render({ model, el }));
    expect(caption()).toBe("Bob plays a 3.");
    expect(console.warn).toHaveBeenCalled();
  });
});

describe("views sent as patches", () => {
  test("applyPatch sets, patches in place, appends to a list and removes, leaving the old view alone", () => {
    const old = { a: 1, b: { c: [1, 2], d: "x", e: null }, gone: true, same: { k: [9] } };
    const frozen = JSON.stringify(old);
    const patch = { s: { a: 2, n: null }, p: { b: { p: { c: { x: [3] } }, s: { d: "y" }, r: ["e"] } }, r: ["gone"] };
    const out = applyPatch(old, patch);
    expect(out).toEqual({ a: 2, n: null, b: { c: [1, 2, 3], d: "y" }, same: { k: [9] } });
    expect(JSON.stringify(old)).toBe(frozen);
    expect(out.same).toBe(old.same); // unchanged parts are shared, not copied
  });

  test("applyPatch patches the changed records of a list of seats, sharing the others", () => {
    const old = { hands: [{ a: 1 }, { a: 2, b: [1] }, { a: 3 }] };
    const frozen = JSON.stringify(old);
    const out = applyPatch(old, { p: { hands: { i: { 1: { s: { a: 5 }, p: { b: { x: [2] } } } } } } });
    expect(out).toEqual({ hands: [{ a: 1 }, { a: 5, b: [1, 2] }, { a: 3 }] });
    expect(JSON.stringify(old)).toBe(frozen);
    expect(out.hands[0]).toBe(old.hands[0]);
  });

  test("applyPatch keeps a key named __proto__ as JSON.parse does: an own key, not the prototype", () => {
    // A view is any game's JSON: every key must come out of a patch as it comes out of a whole view.
    const old = JSON.parse('{"a": 1, "gone": {"__proto__": 2}}');
    const patch = JSON.parse('{"s": {"__proto__": {"x": 2}}, "r": ["gone"]}');
    const out = applyPatch(old, patch);
    expect(Object.keys(out)).toEqual(["a", "__proto__"]);
    expect(JSON.stringify(out)).toBe('{"a":1,"__proto__":{"x":2}}');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    const again = applyPatch(out, JSON.parse('{"p": {"__proto__": {"s": {"y": 1}}}}'));
    expect(JSON.stringify(again)).toBe('{"a":1,"__proto__":{"x":2,"y":1}}');
    expect(Object.getPrototypeOf(again)).toBe(Object.prototype);
  });

  test("a frames message with patched views draws the same frames as full ones", () => {
    const encoded = FRAMES.map((f, i) => {
      if (i === 0) return f;
      const { view, ...rest } = f;
      const before = FRAMES[i - 1].view.pile;
      const grew = view.pile.length > before.length && before.every((v, j) => v === view.pile[j]);
      return { ...rest, view_delta: grew ? { p: { pile: { x: view.pile.slice(before.length) } } } : { s: { pile: view.pile } } };
    });
    expect(decodeFrames(encoded)).toEqual(FRAMES);
    const calls = [];
    const spy = createGameWidget({ name: "spy", mount: () => ({ update: (f) => calls.push(f), destroy() {} }) });
    const { model } = render(spy);
    load(model, { frames: encoded });
    for (let i = 0; i < FRAMES.length; i++) {
      click(".tw-first");
      for (let k = 0; k < i; k++) click(".tw-next");
      expect(calls[calls.length - 1]).toEqual(FRAMES[i]);
    }
  });
});

describe("a part of the timeline patches the frame held before it", () => {
  // Each view as a patch of the view before it (the pile only grows or changes here).
  const encode = (frames, before) =>
    frames.map((f, i) => {
      const prev = i === 0 ? before : frames[i - 1];
      if (!prev) return f;
      const { view, ...rest } = f;
      const old = prev.view.pile;
      const grew = view.pile.length > old.length && old.every((v, j) => v === view.pile[j]);
      return { ...rest, view_delta: grew ? { p: { pile: { x: view.pile.slice(old.length) } } } : { s: { pile: view.pile } } };
    });

  test("a frame sent without `last` is its step's last when the next frame is of another step or none follows", () => {
    const bare = (frames) => frames.map(({ last, ...rest }) => rest);
    expect(decodeFrames(bare(FRAMES))).toEqual(FRAMES);
    // Each step sent apart, as one action's message each.
    expect(decodeFrames(bare(FRAMES.slice(1, 4)), FRAMES[0])).toEqual(FRAMES.slice(1, 4));
    // A `last` sent as it is stays (a step cut short).
    expect(decodeFrames([FRAMES[1]])).toEqual([FRAMES[1]]);
    const calls = [];
    const spy = createGameWidget({ name: "spy", mount: () => ({ update: (f, prev, c) => calls.push({ f, c }), destroy() {} }) });
    const { model } = render(spy);
    load(model, { frames: bare(FRAMES), legal: ["play 1"] });
    expect(calls.at(-1).f).toEqual(FRAMES[4]);
    expect(calls.at(-1).c.interactive).toBe(true);
  });

  test("decodeFrames starts from the frame held before the part", () => {
    const part = encode(FRAMES.slice(3), FRAMES[2]);
    expect("view" in part[0]).toBe(false);
    expect(decodeFrames(part, FRAMES[2])).toEqual(FRAMES.slice(3));
  });

  test("an action's frames from index i draw the same frames as a full timeline", () => {
    const calls = [];
    const spy = createGameWidget({ name: "spy", mount: () => ({ update: (f) => calls.push(f), destroy() {} }) });
    const { model } = render(spy);
    load(model, { frames: encode(FRAMES.slice(0, 3)) });
    model.deliver({ type: "frames", from: 3, frames: encode(FRAMES.slice(3), FRAMES[2]) });
    click(".tw-last");
    for (let i = 0; i < FRAMES.length; i++) {
      click(".tw-first");
      for (let k = 0; k < i; k++) click(".tw-next");
      expect(calls[calls.length - 1]).toEqual(FRAMES[i]);
    }
  });

  test("before the first full answer a part is left for the answer to hello", () => {
    const { model } = render(generic, { current: FRAMES[1], cursor: 1 });
    expect(model.sent).toContainEqual({ type: "hello" });
    model.deliver({ type: "frames", from: 1, frames: encode(FRAMES.slice(2), FRAMES[1]) });
    expect(caption()).toBe(FRAMES[1].caption);
    expect($(".tw-step").textContent).toBe("step 1 / 1");
    load(model, { frames: encode(FRAMES) });
    click(".tw-last");
    expect(caption()).toBe(FRAMES[FRAMES.length - 1].caption);
  });
});

describe("cleanup", () => {
  test("removes every model listener, DOM listener, timer and element", () => {
    vi.useFakeTimers();
    const added = [];
    const removed = [];
    const add = EventTarget.prototype.addEventListener;
    const remove = EventTarget.prototype.removeEventListener;
    vi.spyOn(EventTarget.prototype, "addEventListener").mockImplementation(function (type, fn, opts) {
      added.push([this, type, fn]);
      return add.call(this, type, fn, opts);
    });
    vi.spyOn(EventTarget.prototype, "removeEventListener").mockImplementation(function (type, fn, opts) {
      removed.push([this, type, fn]);
      return remove.call(this, type, fn, opts);
    });
    const model = fakeModel();
    const before = model.listenerCount();
    const cleanup = generic.render({ model, el });
    load(model);
    expect(model.listenerCount()).toBeGreaterThan(before);
    click(".tw-first");
    // a running timer, the log's scroll waiting for the next frame and the live region for the
    // frame to settle
    click(".tw-play");
    expect(vi.getTimerCount()).toBe(3);
    expect(added.length).toBeGreaterThan(5);
    cleanup();
    expect(model.listenerCount()).toBe(before);
    expect(vi.getTimerCount()).toBe(0);
    expect(el.children.length).toBe(0);
    for (const entry of added) {
      expect(removed.some((r) => r[0] === entry[0] && r[1] === entry[1] && r[2] === entry[2])).toBe(true);
    }
    expect(removed.length).toBe(added.length);
  });
});

describe("without a kernel", () => {
  test("mountStatic plays the frames and offers no kernel controls", () => {
    vi.useFakeTimers();
    const cleanup = mountStatic(el, { name: "toy-fifteen", frames: FRAMES, seatNames: ["Ann", "Bob"], seat: 1, mount: mountGeneric });
    expect(caption()).toBe("Set-up.");
    expect($(".tw-seat").disabled).toBe(true);
    expect($(".tw-seat").value).toBe("1");
    click(".tw-play");
    vi.advanceTimersByTime(DEFAULT_SPEED * FRAMES.length);
    expect(caption()).toBe("Bob plays a 3.");
    click(".tw-prev");
    expect($(".tw-continue").hidden).toBe(true);
    expect(el.querySelectorAll(".tw-actions button").length).toBe(0);
    cleanup();
    expect(el.children.length).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  test("a step writes only what it changes: the counter, the caption and the log's current entry", () => {
    const cleanup = mountStatic(el, { name: "toy-fifteen", frames: FRAMES, seatNames: ["Ann", "Bob"], mount: () => ({ update() {} }) });
    const slider = $(".tw-slider");
    const step = (i) => {
      slider.value = String(i);
      slider.dispatchEvent(new Event("input"));
    };
    step(1);
    const observer = new MutationObserver(() => {});
    observer.observe(el, { subtree: true, childList: true, attributes: true, characterData: true });
    // (A frame the slider comes to is spoken once it has stayed, not as it is drawn.)
    step(2);
    const touched = new Set();
    for (const r of observer.takeRecords()) {
      const name = (r.target.nodeType === 1 ? r.target : r.target.parentNode).classList[0];
      touched.add(r.type === "attributes" ? `${name}@${r.attributeName}` : `${name}:text`);
    }
    observer.disconnect();
    expect([...touched].sort()).toEqual([
      "tw-caption:text",
      "tw-log-entry@aria-current",
      "tw-log-entry@tabindex",
      "tw-log-item@class",
      "tw-slider@aria-valuetext",
      "tw-step:text",
    ]);
    expect($(".tw-step").textContent).toBe("step 1 / 2 · 2/3");
    expect(el.querySelectorAll(".tw-log-current").length).toBe(1);
    cleanup();
  });

  test("a step changes the caption, the counter and the spoken caption in their text nodes, never replacing them", () => {
    vi.useFakeTimers();
    const cleanup = mountStatic(el, { name: "toy-fifteen", frames: FRAMES, seatNames: ["Ann", "Bob"], mount: () => ({ update() {} }) });
    const slider = $(".tw-slider");
    const step = (i) => {
      slider.value = String(i);
      slider.dispatchEvent(new Event("input"));
    };
    step(1);
    vi.advanceTimersByTime(SPEAK_SETTLE_MS);
    const texts = [".tw-caption", ".tw-step", ".tw-sr-text"].map((sel) => $(sel).firstChild);
    const observer = new MutationObserver(() => {});
    observer.observe(el, { subtree: true, childList: true, characterData: true });
    step(2);
    step(3);
    vi.advanceTimersByTime(SPEAK_SETTLE_MS);
    const records = observer.takeRecords();
    observer.disconnect();
    // A replaced text node is taken out of the layout and a new one put in: only values change.
    expect(records.filter((r) => r.type === "childList")).toEqual([]);
    expect([".tw-caption", ".tw-step", ".tw-sr-text"].map((sel) => $(sel).firstChild)).toEqual(texts);
    expect(texts.map((t) => t.nodeValue)).toEqual([FRAMES[3].caption, $(".tw-step").textContent, FRAMES[3].caption]);
    cleanup();
  });

  test("the live region speaks the frame a drag stops on, and a step by a button or a key at once", () => {
    vi.useFakeTimers();
    const cleanup = mountStatic(el, { name: "toy-fifteen", frames: FRAMES, seatNames: ["Ann", "Bob"], mount: () => ({ update() {} }) });
    const spoken = () => $(".tw-sr-text").textContent;
    vi.advanceTimersByTime(SPEAK_SETTLE_MS);
    expect(spoken()).toBe("Set-up.");
    const said = [];
    const observer = new MutationObserver(() => {});
    observer.observe($(".tw-sr-text"), { subtree: true, childList: true, characterData: true });
    const heard = () => {
      if (observer.takeRecords().length) said.push(spoken());
    };
    // A drag over every frame, one every 50 ms: nothing is said until it stops, then its frame.
    const slider = $(".tw-slider");
    for (const i of [1, 2, 3, 4, 3]) {
      slider.value = String(i);
      slider.dispatchEvent(new Event("input"));
      vi.advanceTimersByTime(50);
      heard();
    }
    expect(said).toEqual([]);
    vi.advanceTimersByTime(SPEAK_SETTLE_MS - 60);
    heard();
    expect(said).toEqual([]);
    vi.advanceTimersByTime(10);
    heard();
    expect(said).toEqual([FRAMES[3].caption]);
    // A step by a button or a key after a still moment: said at once.
    click(".tw-prev");
    heard();
    expect(said.at(-1)).toBe(FRAMES[2].caption);
    // Steps that follow each other (a key held down): the one it stops on, once it has stayed.
    key("ArrowLeft");
    key("ArrowLeft");
    heard();
    expect(said.at(-1)).toBe(FRAMES[2].caption);
    vi.advanceTimersByTime(SPEAK_SETTLE_MS);
    heard();
    expect(said).toEqual([FRAMES[3].caption, FRAMES[2].caption, FRAMES[0].caption]);
    observer.disconnect();
    cleanup();
    expect(vi.getTimerCount()).toBe(0);
  });

  test("a game module's mountStatic uses its own renderer", () => {
    const cleanup = generic.mountStatic(el, { name: "toy-fifteen", frames: FRAMES, seatNames: ["Ann", "Bob"], start: 4 });
    expect(caption()).toBe("Bob plays a 3.");
    expect($(".tw-generic th").textContent).toBe("pile");
    expect($(".tw-generic td").textContent).toBe("[3]");
    cleanup();
  });
});

describe("the frame a saved notebook stores", () => {
  test("after frames at the live end the model keeps the last one as `current`, locally", () => {
    const { model } = render(generic);
    load(model, { frames: FRAMES.slice(0, 4), cursor: 1, legal: ["play 3"], toMove: 0 });
    expect(model.get("current")).toBe(null); // a reset: Python sends `current` itself
    const bot = frame(3, 0, "Bob plays a 7.", true, { pile: [3, 7] });
    model.deliver({ type: "frames", from: 4, frames: [FRAMES[4], bot], legal: { step: 3, to_move: 0, actions: ["play 1"] } });
    expect(model.get("current")).toEqual(bot);
    expect(model.saves).toBe(0); // nothing sent back for it
    expect(model.sent.filter((m) => m.type !== "hello")).toEqual([]);
  });
});
