// The page between a move's two messages: Python sends the move on its own (no `legal`), then
// the bots' answers with `legal` and the cursor, both echoing the play's id. What else reaches
// the page in between (the error cleared by the move, the same frames in a second display of
// the widget, the answer to another display's message taken first) must not make the move wait
// or make a stale position playable.
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { DEFAULT_SPEED, createGameWidget } from "../src/timeline.js";
import { fakeModel as sharedFakeModel } from "./fake_model.js";

/** The model of a toy game whose second seat is a bot. */
function fakeModel(traits = {}) {
  return sharedFakeModel({ game: "toy", seat_names: ["Ann", "Bob"], seat: null, cursor: 0, current: null, error: "",
    bot_seats: [1], settings: {}, ...traits });
}

/** The id of the last play sent: Python's answers to it echo it. */
const playId = (model) => model.sent.filter((m) => m.type === "play").at(-1).id;

const frame = (step, caption) => ({ step, sub: 0, caption, kind: "test", data: {}, view: { n: step }, last: true });
const MOVES = [frame(0, "Set-up."), frame(1, "Ann plays a 5."), frame(2, "Bob plays a 3."), frame(3, "Ann plays a 1.")];

let hosts;
let cleanups;

/** A display of `model`: what its renderer was last given. */
function display(model) {
  const host = document.createElement("div");
  document.body.append(host);
  hosts.push(host);
  const shown = { calls: [] };
  const widget = createGameWidget({
    name: "spy",
    mount: () => ({ update: (f, prev, ctx) => shown.calls.push({ f, ctx }) }),
  });
  cleanups.push(widget.render({ model, el: host }));
  shown.last = () => shown.calls.at(-1);
  return shown;
}

beforeEach(() => {
  hosts = [];
  cleanups = [];
  vi.useFakeTimers();
});

afterEach(() => {
  cleanups.forEach((c) => c());
  hosts.forEach((h) => h.remove());
  vi.useRealTimers();
});

/** Ann to move at step 2, Bob's (a bot's) answer having just been drawn in every display. */
function atBobsAnswer(model) {
  model.set("cursor", 1);
  model.deliver({ type: "frames", from: 0, frames: MOVES.slice(0, 2) });
  model.deliver({ type: "legal", step: 1, to_move: 1, actions: [] });
  model.deliver({ type: "goto", step: 1 });
  vi.advanceTimersByTime(10_000);
  model.deliver({ type: "frames", from: 2, frames: [MOVES[2]], legal: { step: 2, to_move: 0, actions: ["play 1", "play 2"] } });
  model.set("cursor", 2);
}

test("a move that clears the error banner is still drawn at once, and nothing is playable until the answers", () => {
  const model = fakeModel();
  const page = display(model);
  atBobsAnswer(model);
  model.set("error", "Bob is played by a bot; play 9 was not played."); // an earlier refusal
  vi.advanceTimersByTime(300); // well within the beat of Bob's answer
  expect(page.last().ctx.interactive).toBe(true);
  expect(page.last().ctx.play("play 1")).toBe(true);
  // Python: the move is played, `error` cleared, then the move's own frames (no `legal`)
  model.set("error", "");
  model.deliver({ type: "frames", from: 3, frames: [MOVES[3]], id: playId(model) });
  expect(page.last().f.caption).toBe("Ann plays a 1."); // the answer to this page's play: at once
  expect(page.last().ctx.interactive).toBe(false);
  expect(page.last().ctx.play("play 2")).toBe(false);
  expect(model.sent.filter((m) => m.type === "play")).toHaveLength(1);
});

test("a second display of the widget offers no play at a step a move was just played at", () => {
  const model = fakeModel();
  const a = display(model);
  const b = display(model);
  atBobsAnswer(model);
  vi.advanceTimersByTime(300);
  expect(b.last().ctx.interactive).toBe(true);
  a.last().ctx.play("play 1");
  const id = playId(model);
  model.deliver({ type: "frames", from: 3, frames: [MOVES[3]], id }); // the move, before the bots' answers
  // b still shows Bob's answer for the rest of its beat: not as a position to play from
  expect(b.last().f.caption).toBe("Bob plays a 3.");
  expect(b.last().ctx.interactive).toBe(false);
  expect(b.last().ctx.play("play 2")).toBe(false);
  expect(model.sent.filter((m) => m.type === "play")).toEqual([{ type: "play", action: "play 1", step: 2, id }]);
  // the answers come with `legal`: both displays play on at the new cursor
  model.deliver({ type: "frames", from: 4, frames: [frame(4, "Bob plays a 2.")], legal: { step: 4, to_move: 0, actions: ["play 6"] }, id });
  model.set("cursor", 4);
  vi.advanceTimersByTime(DEFAULT_SPEED * 3);
  for (const shown of [a, b]) expect(shown.last().ctx).toMatchObject({ cursor: 4, interactive: true, legal: ["play 6"] });
});

test("a pass-and-play screen keeps no frame of its own in the model: it would outlast the cover", () => {
  const model = fakeModel({ seats: [0, 1], lock_seat: true, bot_seats: [], seat: 0, pass_to: null });
  const page = display(model);
  atBobsAnswer(model);
  expect(page.last().f.caption).toBe("Bob plays a 3.");
  expect(model.get("current")).toBe(null);
});

test("a page stays waiting for its play's answer when a reset asked for by another display comes first", () => {
  // Python answers another display's hello, taken before this page's play: its `legal` is not
  // the answer to the play. Ending the wait there made the position played from playable again,
  // and a second click in an analysis view replaced the first move.
  const model = fakeModel();
  const a = display(model);
  atBobsAnswer(model);
  vi.advanceTimersByTime(DEFAULT_SPEED * 2);
  expect(a.last().ctx.play("play 1")).toBe(true);
  const id = playId(model);
  model.deliver({ type: "frames", from: 0, frames: MOVES.slice(0, 3) });
  model.deliver({ type: "legal", step: 2, to_move: 0, actions: ["play 1", "play 2"] });
  model.deliver({ type: "goto", step: 2 });
  expect(a.last().ctx.interactive).toBe(false);
  expect(a.last().ctx.play("play 2")).toBe(false);
  // Another display's refused play (its `error`, its `legal` with its own id) does not end it either.
  model.set("error", "Bob is played by a bot; play 9 was not played.");
  model.deliver({ type: "legal", step: 2, to_move: 0, actions: ["play 1", "play 2"], id: `${id}x` });
  expect(a.last().ctx.play("play 2")).toBe(false);
  // Its own answer does: the move at once, then the bots' answers with `legal`.
  model.set("error", "");
  model.deliver({ type: "frames", from: 3, frames: [MOVES[3]], id });
  expect(a.last().f.caption).toBe("Ann plays a 1.");
  expect(a.last().ctx.interactive).toBe(false);
  model.deliver({ type: "frames", from: 4, frames: [frame(4, "Bob plays a 2.")], legal: { step: 4, to_move: 0, actions: ["play 6"] }, id });
  model.set("cursor", 4);
  vi.advanceTimersByTime(DEFAULT_SPEED * 3);
  expect(a.last().ctx).toMatchObject({ cursor: 4, interactive: true, legal: ["play 6"] });
  expect(model.sent.filter((m) => m.type === "play")).toEqual([{ type: "play", action: "play 1", step: 2, id }]);
});

test("two displays of the widget give their plays different ids; a refused play's answer frees its own page only", () => {
  const model = fakeModel();
  const a = display(model);
  const b = display(model);
  atBobsAnswer(model);
  vi.advanceTimersByTime(DEFAULT_SPEED * 2);
  expect(a.last().ctx.play("play 1")).toBe(true);
  const first = playId(model);
  expect(b.last().ctx.play("play 2")).toBe(true); // before a's answer reached b
  const second = playId(model);
  expect(first).not.toBe(second);
  // Python refuses a's play (say, a stale step) and answers it: a plays again, b still waits
  model.set("error", "The game moved on; play 1 was not played.");
  model.deliver({ type: "legal", step: 2, to_move: 0, actions: ["play 1", "play 2"], id: first });
  vi.advanceTimersByTime(DEFAULT_SPEED);
  expect(a.last().ctx.interactive).toBe(true);
  expect(b.last().ctx.interactive).toBe(false);
  model.deliver({ type: "legal", step: 2, to_move: 0, actions: ["play 1", "play 2"], id: second });
  expect(b.last().ctx.interactive).toBe(true);
});

test("a play's answer reaching a page whose seat changed meanwhile ends its wait", () => {
  const model = fakeModel({ bot_seats: [] });
  const page = display(model);
  atBobsAnswer(model);
  vi.advanceTimersByTime(DEFAULT_SPEED * 2);
  expect(page.last().ctx.play("play 1")).toBe(true);
  const id = playId(model);
  model.set("seat", 0); // the selector, before the answer came: the old frames are dropped
  model.deliver({ type: "frames", from: 3, frames: [MOVES[3]], legal: { step: 3, to_move: 1, actions: ["play 6"] }, id });
  model.deliver({ type: "frames", from: 0, frames: MOVES });
  model.deliver({ type: "legal", step: 3, to_move: 1, actions: [] });
  model.set("cursor", 3);
  model.deliver({ type: "goto", step: 3 });
  model.deliver({ type: "legal", step: 3, to_move: 0, actions: ["play 6"] }); // the next turn's
  expect(page.last().ctx).toMatchObject({ seat: 0, interactive: true, legal: ["play 6"] });
});

// Pass-and-play: Ann (seat 0) and Cid (seat 2) share the screen, Bob (seat 1) is a bot.
const TRIO = ["Ann", "Bob", "Cid"];

/** A pass-and-play page on Ann's turn at step 1 (Cid, then Bob, played before her). */
function annToMove() {
  const traits = { game: "toy", seat_names: TRIO, seat: 0, cursor: 1, current: null, error: "", bot_seats: [1],
    settings: {}, lock_seat: true, seats: [0, 2], pass_to: null };
  const model = sharedFakeModel(traits);
  const page = display(model);
  const host = hosts.at(-1);
  model.deliver({ type: "frames", from: 0, frames: MOVES.slice(0, 2) });
  model.deliver({ type: "legal", step: 1, to_move: 0, actions: ["play 1", "play 2"] });
  model.deliver({ type: "goto", step: 1 });
  vi.advanceTimersByTime(10_000);
  /** Python's one state update passing the screen to `seat` (every trait set, then each told). */
  const pass = (seat) => {
    Object.assign(traits, { seat, pass_to: seat, current: null });
    for (const name of ["seat", "pass_to", "current"]) model.emit(`change:${name}`);
  };
  const $ = (sel) => host.querySelector(sel);
  return { model, page, pass, $, host };
}

/** Ann plays; Python answers with her move, Bob's two frames, then passes the screen to Cid. */
function annPlays({ model, page, pass }) {
  expect(page.last().ctx.play("play 1")).toBe(true);
  const id = playId(model);
  model.deliver({ type: "frames", from: 2, frames: [frame(2, "Ann plays a 1.")], id });
  model.deliver({ type: "frames", from: 3, frames: [
    { ...frame(3, "Bob plays a 4."), last: false }, { ...frame(3, "Bob draws a card."), sub: 1 }], id });
  model.set("cursor", 3);
  pass(2);
  model.deliver({ type: "legal", step: 3, to_move: 2, actions: [], id });
}

test("pass-and-play: your move and each bot's answer get their beat in your view, then the cover", () => {
  const screen = annToMove();
  const { page, $ } = screen;
  annPlays(screen);
  // the screen is passed in Python, and Ann still sees her own move, as Ann
  expect(page.last().f.caption).toBe("Ann plays a 1.");
  expect(page.last().ctx.seat).toBe(0);
  expect(page.last().ctx.interactive).toBe(false);
  expect($(".tw-pass").hidden).toBe(true);
  expect($(".tw-seat").value).toBe("0");
  expect($(".tw-view-note").textContent).toBe("Only what Ann may know.");
  vi.advanceTimersByTime(DEFAULT_SPEED - 10);
  expect(page.last().f.caption).toBe("Ann plays a 1.");
  vi.advanceTimersByTime(10);
  expect(page.last().f.caption).toBe("Bob plays a 4.");
  expect(page.last().ctx.seat).toBe(0);
  vi.advanceTimersByTime(DEFAULT_SPEED);
  expect(page.last().f.caption).toBe("Bob draws a card.");
  expect($(".tw-pass").hidden).toBe(true);
  vi.advanceTimersByTime(DEFAULT_SPEED - 10);
  expect($(".tw-pass").hidden).toBe(true);
  // the newest frame had its beat: the cover, and nothing of Ann's view left in the page
  vi.advanceTimersByTime(10);
  expect($(".tw-pass").hidden).toBe(false);
  expect($(".tw-pass-text").textContent).toBe("Pass the screen to Cid.");
  expect($(".tw-caption").textContent).toBe("");
  expect(screen.host.querySelectorAll(".tw-log-entry").length).toBe(0);
  expect($(".tw-seat").value).toBe("2");
});

test("pass-and-play: Skip to now shows the newest frame for a beat, then the cover; a faster speed brings it sooner", () => {
  const screen = annToMove();
  const { page, $ } = screen;
  annPlays(screen);
  $(".tw-skip").click();
  expect(page.last().f.caption).toBe("Bob draws a card.");
  vi.advanceTimersByTime(DEFAULT_SPEED - 10);
  expect($(".tw-pass").hidden).toBe(true);
  // stepping back keeps the cover away while Ann looks; back at the newest frame it comes a beat later
  $(".tw-prev").click();
  vi.advanceTimersByTime(DEFAULT_SPEED * 3);
  expect($(".tw-pass").hidden).toBe(true);
  expect(page.last().f.caption).toBe("Bob plays a 4.");
  $(".tw-last").click();
  const speed = $(".tw-speed");
  speed.value = "150";
  speed.dispatchEvent(new Event("change"));
  vi.advanceTimersByTime(150);
  expect($(".tw-pass").hidden).toBe(false);
  expect(screen.host.querySelectorAll(".tw-log-entry").length).toBe(0);
});

test("pass-and-play: the next player's frames never come while the last player's view is on the screen", () => {
  const screen = annToMove();
  const { model, page, $ } = screen;
  annPlays(screen);
  const calls = page.calls.length;
  // a part of a timeline from i > 0 now can only be a stray: it is not drawn over Ann's view
  model.deliver({ type: "frames", from: 4, frames: [frame(4, "stray")] });
  expect(page.calls.slice(calls).map((c) => c.f.caption)).not.toContain("stray");
  // another display of the widget opened the screen for Cid: Ann's view goes at once, before
  // Cid's frames (from 0) come, and those are drawn as Cid's
  model.set("pass_to", null);
  expect(screen.host.querySelectorAll(".tw-log-entry").length).toBe(0);
  expect($(".tw-caption").textContent).toBe("Waiting for this view's frames…");
  model.deliver({ type: "frames", from: 0, frames: [...MOVES.slice(0, 2), frame(2, "Ann plays a 1."), frame(3, "Bob plays a 4.")] });
  model.deliver({ type: "goto", step: 2, sub: 0, follow: true });
  expect(page.last().f.caption).toBe("Ann plays a 1.");
  expect(page.last().ctx.seat).toBe(2);
  expect($(".tw-pass").hidden).toBe(true);
});

test("pass-and-play with animation off: the newest frame at once, and the cover a beat later", () => {
  const screen = annToMove();
  const { model, page, $ } = screen;
  model.set("settings", { animate: false });
  annPlays(screen);
  expect(page.last().f.caption).toBe("Bob draws a card.");
  vi.advanceTimersByTime(DEFAULT_SPEED - 10);
  expect($(".tw-pass").hidden).toBe(true);
  vi.advanceTimersByTime(10);
  expect($(".tw-pass").hidden).toBe(false);
});

test("pass-and-play: the cover's button takes the focus the player's move left, never another field's", () => {
  for (const elsewhere of [false, true]) {
    const screen = annToMove();
    const { $ } = screen;
    $(".tw-next").removeAttribute("disabled");
    $(".tw-next").focus(); // the control played with (a board's button)
    annPlays(screen);
    $(".tw-next").blur(); // it went away under the focus: back to the page's body
    const field = document.createElement("input");
    document.body.append(field);
    if (elsewhere) field.focus(); // another cell's editor, say
    vi.advanceTimersByTime(DEFAULT_SPEED * 3);
    expect($(".tw-pass").hidden).toBe(false);
    expect(document.activeElement).toBe(elsewhere ? field : $(".tw-pass-ready"));
    field.remove();
    cleanups.forEach((c) => c());
    cleanups = [];
  }
});

test("pass-and-play: the next player's screen opens on the first step they have not seen, never the newest first", () => {
  const screen = annToMove();
  const { model, page, $ } = screen;
  annPlays(screen);
  vi.advanceTimersByTime(DEFAULT_SPEED * 4);
  expect($(".tw-pass").hidden).toBe(false);
  $(".tw-pass-ready").click();
  expect(model.sent.at(-1)).toEqual({ type: "ready" });
  // Python: the screen opened, where Cid starts, then Cid's frames
  model.set("pass_to", null);
  const calls = page.calls.length;
  model.deliver({ type: "goto", step: 1, sub: 0, follow: true });
  model.deliver({ type: "frames", from: 0, frames: [...MOVES.slice(0, 2), frame(2, "Ann plays a 1."), frame(3, "Bob plays a 4.")] });
  model.deliver({ type: "legal", step: 3, to_move: 2, actions: ["play 7"] });
  // the frames drawn in turn (a redraw of the same frame, for `legal`, is no new frame)
  const drawn = () => page.calls.slice(calls).map((c) => c.f.caption).filter((c, i, all) => c !== all[i - 1]);
  expect(drawn()).toEqual(["Ann plays a 5."]);
  expect(page.last().ctx.seat).toBe(2);
  expect(page.last().ctx.interactive).toBe(false);
  vi.advanceTimersByTime(DEFAULT_SPEED * 3);
  expect(drawn()).toEqual(["Ann plays a 5.", "Ann plays a 1.", "Bob plays a 4."]);
  expect(page.last().ctx).toMatchObject({ interactive: true, legal: ["play 7"] });
});
