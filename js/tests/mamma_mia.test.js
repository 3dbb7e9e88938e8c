// @vitest-environment jsdom
import { describe, it, expect, vi, beforeEach, afterEach } from "vitest";
import { created } from "./created.js";
import {
  COLOUR_CSS,
  ICON_CSS,
  KINDS,
  PERSONAL,
  ingredientCard,
  ingredientIcon,
  orderCard,
  orderName,
  recipeLines,
  cardBack,
} from "../src/mamma_mia_cards.js";

const CLASSIC_KINDS = ["salami", "pineapple", "mushroom", "pepper", "olive"];
const PLUS_KINDS = [...CLASSIC_KINDS, "shrimp"];

describe("cards", () => {
  it("names an order in sentences by its printed name, counts in plurals, as the engine does", () => {
    const order = (type, name, recipe, extra = {}) => ({ colour: "yellow", type, name, recipe, crossed: null, choices: null, ...extra });
    expect(orderName(order("monotoni", "Monotoni", { pineapple: 1 }, { label: "monotoni" }))).toBe("Monotoni");
    expect(orderName(order("ciottona", "Ciottona", { pineapple: 1 }))).toBe("Ciottona");
    expect(orderName(order("normal", "Normale", { pepper: 1, olive: 4 }, { label: "4 olive + 1 pepper" })))
      .toBe("Normale (4 olives + 1 pepper)");
    expect(orderName(order("mini", "Mini pizza", { pineapple: 1, mushroom: 1, pepper: 1 }, { crossed: "olive" })))
      .toBe("Mini pizza (1 pineapple + 1 mushroom + 1 pepper, no olives)");
    expect(orderName(order("small_monotoni", "Small Monotoni", {}, { crossed: "pepper" }))).toBe("Small Monotoni (no peppers)");
    expect(orderName(order("pizza_mamma_mia", "Pizza Mamma Mia", { pineapple: 1 }, { choices: ["salami", "shrimp"] })))
      .toBe("Pizza Mamma Mia (1 pineapple + 5 salami or 5 shrimp)");
    // a card without its name (a hand-made view) takes its kind's name, the deck's
    expect(orderName({ type: "normal", recipe: { salami: 4, pepper: 1 } })).toBe("Normale (4 salami + 1 pepper)");
  });

  it("draws every ingredient with its own icon and its own colour", () => {
    const shapes = new Set();
    const colours = new Set();
    const sheet = document.createElement("style");
    sheet.textContent = `${ICON_CSS}\n${COLOUR_CSS}`;
    document.head.append(sheet);
    for (const kind of PLUS_KINDS) {
      const card = ingredientCard(kind);
      document.body.append(card);
      const icon = card.querySelector(".mm-icon");
      expect(icon, kind).not.toBeNull();
      expect(icon.getAttribute("data-kind")).toBe(kind);
      expect(icon.getAttribute("title")).toBe(KINDS[kind].label);
      // The icon's drawing (its stylesheet's picture) differs from every other kind's…
      const picture = getComputedStyle(icon).backgroundImage;
      expect(picture, kind).toMatch(/^url\("data:image\/svg\+xml,/);
      shapes.add(picture);
      // …and the card carries the kind's colour (from its class: nothing in its own style), and
      // its name as text for readers.
      const colour = getComputedStyle(card).getPropertyValue("--mm-kind").trim();
      card.remove();
      expect(colour).toMatch(/^#[0-9a-f]{6}$/i);
      expect(card.getAttribute("style")).toBeNull();
      colours.add(colour);
      expect(card.getAttribute("aria-label")).toBe(KINDS[kind].label);
      expect(card.textContent.replaceAll("\u00ad", "")).toContain(KINDS[kind].label); // a soft hyphen may break it
    }
    sheet.remove();
    expect(shapes.size).toBe(PLUS_KINDS.length);
    expect(colours.size).toBe(PLUS_KINDS.length);
  });

  it("gives each ingredient the colour of the seat it is personal to", () => {
    const sheet = document.createElement("style");
    sheet.textContent = COLOUR_CSS;
    document.head.append(sheet);
    const seen = new Set();
    for (const [colour, kind] of Object.entries(PERSONAL)) {
      const order = orderCard({ colour, type: "normal", name: "Normale", recipe: { [kind]: 1 } });
      const card = ingredientCard(kind);
      document.body.append(order, card);
      const seat = getComputedStyle(order).getPropertyValue("--mm-seat").trim();
      expect(seat).toMatch(/^#[0-9a-f]{6}$/i);
      expect(getComputedStyle(card).getPropertyValue("--mm-kind").trim()).toBe(seat);
      seen.add(seat);
      order.remove();
      card.remove();
    }
    sheet.remove();
    expect(seen.size).toBe(Object.keys(PERSONAL).length);
  });

  it("an unknown kind draws a joker, not a wrong ingredient", () => {
    expect(ingredientIcon(null).getAttribute("data-kind")).toBe("joker");
    expect(ingredientIcon("anchovy").getAttribute("data-kind")).toBe("joker");
  });

  it("shows a normal order's recipe, line by line", () => {
    const card = orderCard({ colour: "green", type: "normal", name: "Normale", recipe: { pineapple: 4, pepper: 1 } });
    const lines = [...card.querySelectorAll(".mm-recipe-line")].map((li) => [li.dataset.kind, li.dataset.n]);
    expect(lines).toEqual([
      ["pineapple", "4"],
      ["pepper", "1"],
    ]);
    expect(card.getAttribute("aria-label")).toBe("green Normale: 4 pineapples, 1 pepper");
  });

  it("shows what each special order asks for", () => {
    // Monotoni: the owner's personal ingredient (green: pepper) plus a joker of 6.
    const mono = recipeLines({ colour: "green", type: "monotoni" });
    expect(mono.map((l) => [l.kind, l.n])).toEqual([
      ["pepper", 1],
      [null, 6],
    ]);
    // Minimale: 3 in the classic game, 4 in Plus.
    expect(recipeLines({ colour: "red", type: "minimale" }, "classic")[1].n).toBe(3);
    expect(recipeLines({ colour: "red", type: "minimale" }, "plus")[1].n).toBe(4);
    // Mini pizza: the printed cards and the crossed-out kind, struck through.
    const mini = orderCard({ colour: "yellow", type: "mini", name: "Mini pizza", recipe: { pineapple: 1, mushroom: 1, pepper: 1 }, crossed: "olive" });
    const crossed = mini.querySelector(".mm-crossed");
    expect(crossed.dataset.kind).toBe("olive");
    expect(mini.querySelectorAll(".mm-recipe-line:not(.mm-crossed)").length).toBe(3);
    // Pizza Mamma Mia: the fixed card and both printed alternatives.
    const pmm = orderCard({ colour: "green", type: "pizza_mamma_mia", name: "Pizza Mamma Mia", fixed: "salami", choices: ["pepper", "pineapple"] });
    const last = [...pmm.querySelectorAll(".mm-recipe-line")].pop();
    expect([...last.querySelectorAll(".mm-icon")].map((s) => s.getAttribute("data-kind"))).toEqual(["joker", "pepper", "pineapple"]);
    expect(pmm.querySelector('.mm-recipe-line[data-kind="salami"]').dataset.n).toBe("1");
  });

  it("draws a card drawn before as a node of its own, as it drew the first, and another card afresh", () => {
    const normale = { colour: "green", type: "normal", name: "Normale", recipe: { pineapple: 4, pepper: 1 } };
    const first = orderCard(normale, { edition: "plus" });
    const html = first.outerHTML;
    // What a caller does to its card is not drawn into the next one.
    first.classList.add("mm-current");
    first.querySelector(".mm-recipe").remove();
    const again = orderCard(normale, { edition: "plus" });
    expect(again).not.toBe(first);
    expect(again.outerHTML).toBe(html);
    // Any argument the card is drawn from changes it: the recipe, the edition, a button's state.
    const other = orderCard({ ...normale, recipe: { pineapple: 4, olive: 1 } }, { edition: "plus" });
    expect([...other.querySelectorAll(".mm-recipe-line")].map((li) => li.dataset.kind)).toEqual(["pineapple", "olive"]);
    const minimale = { colour: "red", type: "minimale", name: "Minimale", recipe: { salami: 1 } };
    expect(orderCard(minimale, { edition: "plus" }).outerHTML).not.toBe(orderCard(minimale, { edition: "classic" }).outerHTML);
    const pressed = ingredientCard("olive", { button: true, pressed: true });
    expect(pressed.getAttribute("aria-pressed")).toBe("true");
    expect(ingredientCard("olive", { button: true, pressed: false }).getAttribute("aria-pressed")).toBe("false");
    expect(ingredientCard("olive", { button: true }).hasAttribute("aria-pressed")).toBe(false);
    expect(cardBack("order", "green").outerHTML).not.toBe(cardBack("order", "red").outerHTML);
  });

  it("card backs differ for ingredients and orders", () => {
    expect(cardBack("ingredient").dataset.back).toBe("ingredient");
    const sheet = document.createElement("style");
    sheet.textContent = COLOUR_CSS;
    document.head.append(sheet);
    const back = cardBack("order", "purple");
    const other = cardBack("order", "green");
    const nobody = cardBack("order", undefined);
    document.body.append(back, other, nobody);
    expect(back.dataset.back).toBe("order");
    const seat = (node) => getComputedStyle(node).getPropertyValue("--mm-seat").trim();
    expect(seat(back)).toMatch(/^#[0-9a-f]{6}$/i);
    expect(seat(other)).toMatch(/^#[0-9a-f]{6}$/i);
    expect(seat(back)).not.toBe(seat(other));
    expect(seat(nobody)).toBe("#888");
    for (const node of [back, other, nobody]) node.remove();
    sheet.remove();
  });
});

// ---------------------------------------------------------------------------------------
// The table, from fake observations in the engine's format (docs/rules/mamma-mia.md).
import { css, mount, parseAction, makeComposer, tallyOf, lastPlayed, playedEntries } from "../src/mamma_mia.js";

function order(colour, type, recipe, extra = {}) {
  const label = extra.label || (type === "normal" ? Object.entries(recipe).map(([k, n]) => `${n} ${k}`).join(" + ") : type);
  return { colour, type, name: type === "normal" ? "Normale" : type, recipe, crossed: null, choices: null, label, ...extra };
}

function fakeView(over = {}) {
  const P = 3;
  const players = [0, 1, 2].map((s) => ({
    seat: s,
    colour: ["yellow", "green", "brown"][s],
    hand_ingredients: [5, 6, 4][s],
    hand_orders: [2, 1, 1][s],
    waiter: [6, 7, 7][s],
    delivered: [1, 0, 2][s],
    mamma_mia: s === 2,
  }));
  return {
    game: "mamma-mia",
    edition: "classic",
    players,
    seats: ["Yellow", "Green", "Brown"],
    colours: ["yellow", "green", "brown"],
    personal: ["pineapple", "pepper", "mushroom"],
    kinds: CLASSIC_KINDS,
    phase: "turn",
    to_move: 0,
    oven_number: 1,
    ovens: 3,
    supply: 20,
    mamma_mia_card: 2,
    oven: {
      size: 6,
      log: [
        { seat: 1, kind: "salami", count: 2 },
        { seat: 2, order: "brown" },
        { seat: 0, kind: "salami", count: 3 },
      ],
      tally: null,
    },
    table: { salami: 2, pineapple: 3, mushroom: 4, pepper: 3, olive: 0 },
    hand: {
      ingredients: { pineapple: 3, olive: 2 },
      orders: [order("yellow", "normal", { salami: 4, pineapple: 1 }), order("yellow", "minimale", { pineapple: 1 })],
    },
    evaluation: null,
    scores: [1, 0, 2],
    winners: [],
    ...over,
  };
}

/** The text of a node. */
function text(node) {
  return node.textContent;
}

function frame(view, extra = {}) {
  return { step: 1, sub: 0, caption: "", kind: "turn", data: {}, view, last: true, ...extra };
}

function makeCtx(over = {}) {
  return {
    seat: 0,
    seatNames: ["Yellow", "Green", "Brown"],
    interactive: false,
    legal: [],
    play: vi.fn(() => true),
    send: vi.fn(),
    settings: {},
    model: null,
    ...over,
  };
}

let host;
beforeEach(() => {
  host = document.createElement("div");
  document.body.append(host);
});
afterEach(() => host.remove());

describe("the card table", () => {
  it("draws one column per kind with as many cards as the table holds", () => {
    const board = mount(host, makeCtx());
    const view = fakeView();
    board.update(frame(view), null, makeCtx());
    const columns = host.querySelectorAll(".mm-column");
    expect([...columns].map((c) => c.dataset.kind)).toEqual(CLASSIC_KINDS);
    for (const col of columns) {
      const n = view.table[col.dataset.kind];
      expect(col.querySelectorAll(".mm-column-stack .mm-card").length).toBe(n);
      expect(col.querySelector(".mm-column-count").textContent).toBe(String(n));
    }
    // Plus: six columns, shrimp included.
    board.update(frame(fakeView({ edition: "plus", kinds: PLUS_KINDS, table: { shrimp: 2 } })), null, makeCtx());
    expect(host.querySelectorAll(".mm-column").length).toBe(6);
    expect(host.querySelector('.mm-column[data-kind="shrimp"]').dataset.count).toBe("2");
    board.destroy();
  });

  it("shows the supply, the oven's size and its public log, newest first", () => {
    const board = mount(host, makeCtx());
    board.update(frame(fakeView()), null, makeCtx());
    expect(host.querySelector(".mm-supply .mm-pile-count").textContent).toBe("20");
    expect(host.querySelector(".mm-oven .mm-pile-count").textContent).toBe("6");
    const items = [...host.querySelectorAll(".mm-log li")];
    expect(items.map(text)).toEqual([
      "Yellow: 3 salami",
      "Brown: an order (face down)",
      "Green: 2 salami",
    ]);
    expect(items[1].dataset.order).toBe("brown");
    board.destroy();
  });

  it("marks a pile of one back (the supply's height follows it), set in place as its count changes", () => {
    const board = mount(host, makeCtx());
    const supply = () => host.querySelector(".mm-supply .mm-pile");
    const seen = [];
    for (const n of [20, 2, 1, 0, 3]) {
      board.update(frame(fakeView({ supply: n })), null, makeCtx());
      seen.push([n, supply().querySelectorAll(".mm-pile-stack > .mm-card").length, supply().classList.contains("mm-pile-one")]);
    }
    expect(seen).toEqual([[20, 3, false], [2, 2, false], [1, 1, true], [0, 1, true], [3, 3, false]]);
    // A pile first drawn with one back is marked too.
    board.destroy();
    const again = mount(host, makeCtx());
    again.update(frame(fakeView({ supply: 1 })), null, makeCtx());
    expect(supply().classList.contains("mm-pile-one")).toBe(true);
    expect(css).toMatch(/\.mm-supply > \.mm-pile\.mm-pile-one \{ height: /);
    again.destroy();
  });

  it("names a face-down order in the log only when the view carries its card (all-seeing)", () => {
    const board = mount(host, makeCtx());
    const view = fakeView();
    // the card as the engine shows it: its printed name, never its notation label
    const card = { colour: "brown", type: "mini", name: "Mini pizza", recipe: { pineapple: 1, mushroom: 1, pepper: 1 },
      crossed: "olive", choices: null, label: "mini 1 pineapple + 1 mushroom + 1 pepper without olive" };
    const log = view.oven.log.map((e) => (e.kind ? e : { ...e, card }));
    board.update(frame({ ...view, oven: { ...view.oven, log } }), null, makeCtx());
    expect([...host.querySelectorAll(".mm-log li")].map(text))
      .toContain("Brown: an order, face down: Mini pizza (1 pineapple + 1 mushroom + 1 pepper, no olives)");
    expect(host.querySelector(".mm-log").textContent).not.toContain("without");
    board.destroy();
  });

  it("shows each seat's sizes as card backs and who holds the Mamma Mia card", () => {
    const board = mount(host, makeCtx());
    board.update(frame(fakeView()), null, makeCtx());
    const seats = host.querySelectorAll(".mm-seat");
    expect(seats.length).toBe(3);
    const green = seats[1];
    expect(green.querySelector('.mm-backs[data-back="ingredient"]').dataset.count).toBe("6");
    expect(green.querySelector('.mm-backs[data-back="order"]').dataset.count).toBe("1");
    expect(green.querySelector(".mm-waiter b").textContent).toBe("7");
    expect(seats[2].querySelector('[data-card="mamma-mia"]').textContent).toBe("Mamma Mia!");
    expect(seats[0].querySelector('[data-card="mamma-mia"]')).toBeNull();
    expect(seats[0].classList.contains("mm-to-move")).toBe(true);
    board.destroy();
  });

  it("shows only the viewing seat's own hand as cards", () => {
    const board = mount(host, makeCtx({ seat: 0 }));
    board.update(frame(fakeView()), null, makeCtx({ seat: 0 }));
    const hands = host.querySelectorAll(".mm-hand-cards");
    expect(hands.length).toBe(1);
    expect(hands[0].dataset.seat).toBe("0");
    expect(hands[0].querySelectorAll(".mm-ing").length).toBe(5);
    expect([...hands[0].querySelectorAll(".mm-order")].map((o) => o.dataset.colour)).toEqual(["yellow", "yellow"]);
    // Other seats appear only as backs: no face-up card outside the own hand and the table.
    const faces = [...host.querySelectorAll(".mm-seat .mm-ing, .mm-seat .mm-order")];
    expect(faces).toEqual([]);
    expect(host.querySelector(".mm-teaching")).toBeNull();
    board.destroy();
  });

  it("labels every hand with the all-seeing view's name, as the View menu and MammuZ do", () => {
    const hands = [
      { ingredients: { salami: 1 }, orders: [] },
      { ingredients: { pepper: 2 }, orders: [order("green", "normal", { pineapple: 4, pepper: 1 })] },
      { ingredients: {}, orders: [] },
    ];
    const ctx = makeCtx({ seat: null });
    const board = mount(host, ctx);
    board.update(frame(fakeView({ hand: null, hands })), null, ctx);
    const box = host.querySelector(".mm-teaching");
    expect(box.querySelector("h4").textContent).toBe("Every hand (all-seeing view: no player sees this)");
    expect([...box.querySelectorAll(".mm-hand-cards")].map((h) => h.dataset.seat)).toEqual(["0", "1", "2"]);
    expect(box.querySelector('.mm-hand-cards[data-seat="1"] .mm-order').dataset.colour).toBe("green");
    // A row of small cards draws a pile as its top card and count; a seat's own hand, every card.
    const pile = box.querySelector('.mm-hand-cards[data-seat="1"] .mm-hand-group[data-kind="pepper"]');
    expect(pile.querySelectorAll(".mm-card").length).toBe(1);
    // The count is drawn from its data (CSS), not written into the card's name.
    expect(pile.querySelector(".mm-count").dataset.n).toBe("2");
    const own = makeCtx({ seat: 1 });
    board.update(frame(fakeView({ hand: hands[1], hands: undefined })), null, own);
    expect(host.querySelectorAll('.mm-hand-group[data-kind="pepper"] .mm-card').length).toBe(2);
    board.destroy();
  });

  it("switches the tally in the page at once, summed from the public log, and keeps the switch in the settings", () => {
    const traits = { settings: { tally: false, animate: true } };
    const model = { get: (k) => traits[k], set: vi.fn((k, v) => (traits[k] = v)), save_changes: vi.fn() };
    const ctx = makeCtx({ model, live: true, settings: traits.settings });
    const board = mount(host, ctx);
    board.update(frame(fakeView()), null, ctx);
    expect(host.querySelector(".mm-tally")).toBeNull();
    host.querySelector('[data-action="tally"]').click();
    // Drawn before any kernel could answer, and nothing is asked of it.
    expect(text(host.querySelector('.mm-tally [data-kind="salami"]'))).toBe("5");
    expect(text(host.querySelector('.mm-tally [data-order="brown"]'))).toBe("1 order");
    expect(ctx.send).not.toHaveBeenCalled();
    expect(traits.settings).toEqual({ tally: true, animate: true });
    expect(model.save_changes).toHaveBeenCalled();
    // Python switching it off (w.tally = False) is drawn as well.
    traits.settings = { tally: false, animate: true };
    board.update(frame(fakeView()), null, ctx);
    expect(host.querySelector(".mm-tally")).toBeNull();
    board.destroy();
  });

  it("switches the tally of a standalone replay with no model", () => {
    const ctx = makeCtx({ live: false });
    const board = mount(host, ctx);
    board.update(frame(fakeView()), null, ctx);
    host.querySelector('[data-action="tally"]').click();
    expect(text(host.querySelector('.mm-tally [data-kind="salami"]'))).toBe("5");
    host.querySelector('[data-action="tally"]').click();
    expect(host.querySelector(".mm-tally")).toBeNull();
    board.destroy();
  });

  it("sums the public log into a tally", () => {
    const t = tallyOf(fakeView().oven.log, fakeView());
    expect(t).toEqual({ ingredients: { salami: 5 }, orders: { brown: 1 } });
  });
});

// The legal turns of fakeView's hand (3 pineapple, 2 olive; orders "4 salami + 1 pineapple"
// and "minimale"), in the engine's notation: every count of one kind, maybe an order, a source.
function legalTurns() {
  const out = [];
  for (const [kind, max] of [["pineapple", 3], ["olive", 2]]) {
    for (let n = 1; n <= max; n++) {
      for (const o of [null, "4 salami + 1 pineapple", "minimale"]) {
        for (const src of ["supply", "waiter"]) {
          out.push([`put ${n} ${kind}`, o ? `order ${o}` : null, `draw ${src}`].filter(Boolean).join("; "));
        }
      }
    }
  }
  return out;
}

describe("playing a turn from the hand", () => {
  it("parses the engine's notation", () => {
    expect(parseAction("put 2 pineapple; order 4 salami + 1 pineapple; draw waiter")).toMatchObject({
      type: "turn", kind: "pineapple", count: 2, order: "4 salami + 1 pineapple", source: "waiter", draw: null,
    });
    expect(parseAction("put 1 olive; draw 2 from supply")).toMatchObject({ type: "turn", kind: "olive", count: 1, source: "supply", draw: 2 });
    expect(parseAction("pass")).toMatchObject({ type: "turn", kind: null, count: 0, source: null });
    expect(parseAction("make with salami adding 2 salami")).toMatchObject({ type: "make", variant: "salami", add: "2 salami" });
    expect(parseAction("ask for 1 olive")).toMatchObject({ type: "ask", variant: null, cards: "1 olive" });
    expect(parseAction("draw 5 ingredients").type).toBe("restock");
    expect(parseAction("send back").type).toBe("send-back");
  });

  it("composes ingredients, an order and the source into the legal notation", () => {
    const legal = legalTurns();
    const ctx = makeCtx({ interactive: true, legal });
    const board = mount(host, ctx);
    board.update(frame(fakeView()), null, ctx);
    const play = () => host.querySelector('[data-action="play-turn"]');
    expect(play().disabled).toBe(true);
    // The second pineapple card means "2 pineapples".
    host.querySelectorAll('.mm-hand-group[data-kind="pineapple"] button')[1].click();
    expect(play().disabled).toBe(true); // no source yet
    host.querySelector('.mm-hand-cards button.mm-order[data-index="1"]').click();
    host.querySelector('[data-action="source"][data-source="waiter"]').click();
    expect(play().disabled).toBe(false);
    play().click();
    expect(ctx.play).toHaveBeenCalledTimes(1);
    expect(ctx.play).toHaveBeenCalledWith("put 2 pineapple; order minimale; draw waiter");
    board.destroy();
  });

  it("offers only legal choices", () => {
    // Only olive may be put, and only from the supply.
    const legal = ["put 1 olive; draw supply", "put 2 olive; draw supply"];
    const ctx = makeCtx({ interactive: true, legal });
    const board = mount(host, ctx);
    board.update(frame(fakeView()), null, ctx);
    for (const b of host.querySelectorAll('.mm-hand-group[data-kind="pineapple"] button')) expect(b.disabled).toBe(true);
    for (const b of host.querySelectorAll('.mm-hand-group[data-kind="olive"] button')) expect(b.disabled).toBe(false);
    for (const b of host.querySelectorAll("button.mm-order")) expect(b.disabled).toBe(true);
    expect([...host.querySelectorAll('[data-action="source"]')].map((b) => b.dataset.source)).toEqual(["supply"]);
    // A click on a disabled card selects nothing.
    host.querySelector('.mm-hand-group[data-kind="pineapple"] button').click();
    host.querySelector('[data-action="source"]').click();
    expect(host.querySelector('[data-action="play-turn"]').disabled).toBe(true);
    host.querySelectorAll('.mm-hand-group[data-kind="olive"] button')[0].click();
    host.querySelector('[data-action="play-turn"]').click();
    expect(ctx.play).toHaveBeenCalledWith("put 1 olive; draw supply");
    board.destroy();
  });

  it("does not offer to compose a turn when the seat may not act", () => {
    const ctx = makeCtx({ interactive: false, legal: [] });
    const board = mount(host, ctx);
    board.update(frame(fakeView()), null, ctx);
    expect(host.querySelector(".mm-composer")).toBeNull();
    expect(host.querySelector(".mm-hand-cards button")).toBeNull();
    board.destroy();
  });

  it("a full hand needs no source; a hand without ingredients plays the special turn", () => {
    const comp = makeComposer(["put 1 olive", "put 2 olive"], { kind: "olive", count: 2, order: null, source: undefined, draw: null }, fakeView().hand);
    expect(comp.chosen()).toBe("put 2 olive");
    const ctx = makeCtx({ interactive: true, legal: ["draw 5 ingredients"] });
    const board = mount(host, ctx);
    board.update(frame(fakeView({ edition: "plus", hand: { ingredients: {}, orders: [] } })), null, ctx);
    const btn = host.querySelector('.mm-other-actions button[data-notation="draw 5 ingredients"]');
    expect(btn.textContent).toMatch(/Draw 5 ingredients/);
    btn.click();
    expect(ctx.play).toHaveBeenCalledWith("draw 5 ingredients");
    board.destroy();
  });
});

function evaluationView(over = {}) {
  const o = order("green", "normal", { pineapple: 4, pepper: 1 });
  return fakeView({
    phase: "evaluation",
    to_move: 1,
    table: { salami: 2, pineapple: 3, mushroom: 4, pepper: 3, olive: 0 },
    evaluation: {
      emptier: 2,
      revealed: [
        { type: "ingredient", kind: "pineapple", seat: 0 },
        { ...o, type: "order", order_type: "normal", seat: 1 },
      ],
      remaining: 4,
      order: { ...o, owner: 1, needs: { pineapple: 4, pepper: 1 }, from_table: {}, from_hand: {}, from_helper: {}, helper: null, result: null },
      decision: { seat: 1, question: "Your order 4 pineapple + 1 pepper lacks 1 pineapple: add them from your hand, or send it back?", kind: "add_from_hand" },
    },
    ...over,
  });
}

describe("the evaluation", () => {
  it("a decision shows the question and one labelled button per legal answer to the seat that decides", () => {
    const legal = ["make adding 1 pineapple", "send back"];
    const ctx = makeCtx({ seat: 1, interactive: true, legal });
    const board = mount(host, ctx);
    board.update(frame(evaluationView(), { kind: "reveal" }), null, ctx);
    const dialog = host.querySelector(".mm-decision");
    expect(dialog.getAttribute("role")).toBe("dialog");
    expect(dialog.textContent).toContain("lacks 1 pineapple");
    const buttons = [...dialog.querySelectorAll("button")];
    expect(buttons.map((b) => b.dataset.notation)).toEqual(legal);
    expect(buttons.map((b) => b.textContent)).toEqual(["Make it, adding 1 pineapple from my hand", "Send it back under my waiter"]);
    buttons[0].click();
    expect(ctx.play).toHaveBeenCalledWith("make adding 1 pineapple");
    // While the viewer decides, the order's heading gives its line to the question (marked on
    // the box, the same node kept, and taken off once the decision is another seat's).
    const box = host.querySelector(".mm-eval-box");
    expect(box.classList.contains("mm-deciding")).toBe(true);
    const other = makeCtx({ seat: 0, interactive: true, legal: [] });
    board.update(frame(evaluationView(), { kind: "reveal", step: 2 }), null, other);
    expect(host.querySelector(".mm-eval-box")).toBe(box);
    expect(box.classList.contains("mm-deciding")).toBe(false);
    board.destroy();
  });

  it("a revealed order stands in the strip as its spine, whole beside it as the order being settled", () => {
    const ctx = makeCtx({ seat: 0, interactive: false, legal: [] });
    const board = mount(host, ctx);
    board.update(frame(evaluationView(), { kind: "reveal" }), null, ctx);
    const [ingredient, spine] = host.querySelector(".mm-revealed").children;
    expect(ingredient.dataset.kind).toBe("pineapple");
    // The spine: its name in its owner's colour, what it asks for in words.
    expect(spine.className).toBe("mm-spine mm-c-green");
    expect(spine.textContent).toBe("Normale");
    expect(spine.getAttribute("aria-label")).toBe("green Normale: 4 pineapples, 1 pepper");
    expect(spine.querySelector(".mm-recipe")).toBeNull();
    // Its recipe is drawn once, on the card of the order being settled.
    expect(host.querySelectorAll(".mm-eval-box .mm-recipe")).toHaveLength(1);
    expect(host.querySelector(".mm-settle > .mm-order").getAttribute("aria-label")).toBe("green Normale: 4 pineapples, 1 pepper");
    board.destroy();
  });

  it("another seat only sees that a decision is awaited", () => {
    const ctx = makeCtx({ seat: 0, interactive: false, legal: [] });
    const board = mount(host, ctx);
    board.update(frame(evaluationView(), { kind: "reveal" }), null, ctx);
    const dialog = host.querySelector(".mm-decision");
    expect(dialog.querySelector("button")).toBeNull();
    expect(dialog.textContent).toContain("Waiting for Green");
    board.destroy();
  });

  it("marks the table cards an order needs, then the cards a made pizza used by origin", () => {
    const ctx = makeCtx({ seat: null });
    const board = mount(host, ctx);
    board.update(frame(evaluationView({ hands: [] }), { kind: "reveal" }), null, ctx);
    // Needs 4 pineapple (3 on the table) and 1 pepper: the 3 pineapples and 1 pepper are marked.
    expect(host.querySelectorAll('.mm-column[data-kind="pineapple"] .mm-wanted').length).toBe(3);
    expect(host.querySelectorAll('.mm-column[data-kind="pepper"] .mm-wanted').length).toBe(1);
    const made = evaluationView({ hands: [] });
    made.table = { salami: 2, pineapple: 0, mushroom: 4, pepper: 2, olive: 0 };
    Object.assign(made.evaluation.order, { result: "made", from_table: { pineapple: 3, pepper: 1 }, from_hand: { pineapple: 1 } });
    made.evaluation.decision = null;
    board.update(frame(made, { sub: 1, kind: "made" }), null, ctx);
    const pine = host.querySelector('.mm-column[data-kind="pineapple"]');
    expect(pine.querySelectorAll(".mm-taken").length).toBe(3);
    expect(pine.querySelectorAll(".mm-from-hand").length).toBe(1);
    expect(host.querySelectorAll('.mm-column[data-kind="pepper"] .mm-card:not(.mm-taken)').length).toBe(2);
    expect(host.querySelector(".mm-settle .mm-line-hand").textContent).toContain("Green's hand");
    // An order sent back goes under its owner's waiter, not a waiter of the table's.
    const back = evaluationView({ hands: [] });
    Object.assign(back.evaluation.order, { result: "sent back" });
    back.evaluation.decision = null;
    board.update(frame(back, { sub: 1, kind: "sent-back" }), null, ctx);
    expect(host.querySelector(".mm-settle").textContent).toContain("Sent back under Green's waiter.");
    board.destroy();
  });

  it("reveals one card per sub-step: each forward step at a followable pace flies one card to its column, each step back undoes it", () => {
    const ctx = makeCtx({ seat: null });
    const salami = (seat) => ({ type: "ingredient", kind: "salami", seat });
    // Yellow put 3 salami together; the emptier turns them over one at a time (sub-steps 1..3)
    const frames = [1, 2, 3].map((n) => {
      const v = fakeView({ phase: "evaluation", to_move: null, table: { salami: n, pineapple: 0, mushroom: 0, pepper: 0, olive: 0 },
        oven: { size: 4 - n, log: [{ seat: 0, kind: "salami", count: 3 }, { seat: 1, order: "green" }], tally: null },
        evaluation: { emptier: 2, revealed: Array.from({ length: n }, () => salami(0)), remaining: 4 - n, order: null, decision: null } });
      return frame(v, { sub: n, kind: "reveal", data: { kind: "salami", count: 1, seat: 0, nth: n, of: 3 }, last: false });
    });
    const fresh = frames.map((f) => {
      const div = document.createElement("div");
      mount(div, ctx).update(f, null, ctx);
      return div.innerHTML;
    });
    // The flights, as the Web Animations API would play them (jsdom has none).
    const flown = [];
    Element.prototype.animate = function () {
      flown.push(this);
      return { finish() {} };
    };
    vi.useFakeTimers();
    try {
      const board = mount(host, ctx);
      board.update(frames[0], null, ctx);
      for (const i of [1, 2]) {
        vi.advanceTimersByTime(700);
        flown.length = 0;
        board.update(frames[i], frames[i - 1], ctx);
        // exactly two cards fly: the top of the salami column and the newest in the strip
        const stack = [...host.querySelectorAll('.mm-column[data-kind="salami"] .mm-card')];
        expect(stack.length).toBe(i + 1);
        expect(flown).toEqual([host.querySelector(".mm-revealed").lastElementChild, stack[i]]);
        // the same frame drawn again (a click) does not fly again
        flown.length = 0;
        host.querySelector(".mm-tally-toggle").click();
        expect(flown).toEqual([]);
      }
      // mid-entry the log says how many of the group are turned over; once all are, it is struck
      vi.advanceTimersByTime(700);
      board.update(frames[1], frames[0], ctx);
      const entry = host.querySelector('.mm-log li[data-kind="salami"]');
      expect(entry.classList.contains("mm-log-revealing")).toBe(true);
      expect(entry.textContent).toContain("2 turned over");
      board.update(frames[2], frames[1], ctx);
      expect(host.querySelector('.mm-log li[data-kind="salami"]').classList.contains("mm-log-revealed")).toBe(true);
      // a scrub (frames drawn faster than a move is followed) flies nothing
      flown.length = 0;
      vi.advanceTimersByTime(20);
      board.update(frames[1], frames[0], ctx);
      vi.advanceTimersByTime(20);
      board.update(frames[2], frames[1], ctx);
      expect(flown).toEqual([]);
      host.querySelector(".mm-tally-toggle").click();
      // stepping back undoes one card each time and draws exactly what a fresh render draws
      for (const i of [1, 0]) {
        vi.advanceTimersByTime(700);
        board.update(frames[i], frames[i + 1], ctx);
        expect(flown).toEqual([]);
        expect(host.querySelectorAll('.mm-column[data-kind="salami"] .mm-card').length).toBe(i + 1);
        expect(host.innerHTML).toBe(fresh[i]);
      }
      board.destroy();
    } finally {
      vi.useRealTimers();
      delete Element.prototype.animate;
    }
  });
});

describe("updating in place", () => {
  /** The all-seeing view before and after Green's turn: 2 salami in the oven, 1 olive drawn. */
  function greensTurn() {
    const hands = [
      { ingredients: { pineapple: 3, olive: 2 }, orders: [order("yellow", "normal", { salami: 4, pineapple: 1 })] },
      { ingredients: { salami: 4, pepper: 2 }, orders: [order("green", "normal", { pepper: 4, olive: 1 })] },
      { ingredients: { mushroom: 2, pepper: 2 }, orders: [order("brown", "minimale", { mushroom: 1 })] },
    ];
    const before = fakeView({ to_move: 1, hand: undefined, hands });
    const players = before.players.map((p) => (p.seat === 1 ? { ...p, hand_ingredients: p.hand_ingredients - 1 } : p));
    const after = fakeView({
      to_move: 2, hand: undefined, players, supply: 19,
      hands: [hands[0], { ...hands[1], ingredients: { salami: 2, pepper: 2, olive: 1 } }, hands[2]],
      oven: { ...before.oven, size: 8, log: [...before.oven.log, { seat: 1, kind: "salami", count: 2 }] },
    });
    return [
      // (a frame that marks no turn: Yellow's seat and log entry carry no "just played")
      frame(before, { step: 3, kind: "reveal", data: {} }),
      frame(after, { step: 4, data: { seat: 1, put: { kind: "salami", count: 2 }, order: false, source: "supply", drew: 1 } }),
    ];
  }

  it("a turn builds the nodes of what it changed only: the new log entry, the mover's changed cards", () => {
    const ctx = makeCtx({ seat: null });
    const [before, after] = greensTurn();
    const board = mount(host, ctx);
    board.update(before, null, ctx);
    const kept = [...host.querySelectorAll(".mm-log li, .mm-seat, .mm-hand-group, .mm-hand-cards > .mm-order")];
    const made = created(() => board.update(after, before, ctx));
    const built = (selector) => made.filter((n) => n.matches(selector));
    // The oven's log: the new entry only.
    expect(built("li[data-key]").map((n) => n.dataset.key)).toEqual(["3"]);
    // Seats: every seat's lines and badges stay; the badge of the one that just played and
    // the one to move now are shown, the others hidden, the facts of the one whose hand
    // shrank are set in place.
    expect(built(".mm-seat, .mm-seat-name, .mm-seat-name *, .mm-seat-facts, .mm-seat-facts *")).toEqual([]);
    const shown = [...host.querySelectorAll(".mm-badge")].filter((n) => !n.hidden);
    expect(shown.map((n) => [n.closest(".mm-seat").dataset.seat, n.textContent])).toEqual([
      ["1", "just played"],
      ["2", "to move"],
    ]);
    const green = after.view.players[1];
    expect(green.hand_ingredients).toBe(before.view.players[1].hand_ingredients - 1);
    expect(host.querySelector('.mm-seat[data-seat="1"] .mm-hand-size b').textContent).toBe(`${green.hand_ingredients}+${green.hand_orders}`);
    // Hands: Green's salami and the olive drawn; no order card, no other seat's cards.
    expect(built(".mm-hand-group").map((n) => n.dataset.kind).sort()).toEqual(["olive", "salami"]);
    expect(built(".mm-order")).toEqual([]);
    // What did not change is the same node, and what a fresh render draws is what is shown.
    const first = host.querySelector('.mm-log li[data-key="0"]');
    expect(kept).toContain(first);
    const fresh = document.createElement("div");
    mount(fresh, ctx).update(after, before, ctx);
    expect(host.innerHTML).toBe(fresh.innerHTML);
    board.destroy();
  });

  it("a step back takes the turn's entry off the oven's log and keeps the others, as a fresh board draws them", () => {
    const ctx = makeCtx({ seat: null });
    const [before, turn] = greensTurn();
    // As the frames of a replay are: the parts a turn leaves as they were are the same values.
    const after = { ...turn, view: { ...turn.view, colours: before.view.colours } };
    const board = mount(host, ctx);
    board.update(after, before, ctx);
    const entries = [...host.querySelectorAll(".mm-log li")];
    expect(entries[0].dataset.key).toBe("3");
    expect(entries[0].classList.contains("mm-log-new")).toBe(true);
    // Brown's turn next: Green's entry is no longer the newest.
    const later = {
      ...after,
      step: 5,
      data: { seat: 2, put: { kind: "mushroom", count: 1 }, order: false, source: "supply", drew: 1 },
      view: { ...after.view, to_move: 0, oven: { ...after.view.oven, size: 9, log: [...after.view.oven.log, { seat: 2, kind: "mushroom", count: 1 }] } },
    };
    for (const [shown, was] of [[before, after], [after, before], [later, after]]) {
      const made = created(() => board.update(shown, was, ctx));
      const fresh = document.createElement("div");
      mount(fresh, ctx).update(shown, was, ctx);
      expect(host.innerHTML).toBe(fresh.innerHTML);
      // The entries of the frames are the same nodes: only a turn's comes and goes.
      const now = [...host.querySelectorAll(".mm-log li")];
      expect(now.slice(-3)).toEqual(entries.slice(1));
      expect(made.filter((n) => n.matches("li"))).toEqual(shown === before ? [] : [now[0]]);
    }
    expect(host.querySelectorAll(".mm-log li.mm-log-new").length).toBe(1);
    board.destroy();
  });

  it("a turn in the all-seeing view goes through the mover's row of cards alone", () => {
    const ctx = makeCtx({ seat: null });
    const [before, after] = greensTurn();
    const board = mount(host, ctx);
    board.update(before, null, ctx);
    // A mark on every row's order card that only going through the row would set right again.
    for (const card of host.querySelectorAll(".mm-hand-cards .mm-order")) card.dataset.index = "9";
    board.update(after, before, ctx);
    const marks = [...host.querySelectorAll(".mm-hand-cards")].map((row) => [row.dataset.seat, row.querySelector(".mm-order").dataset.index]);
    expect(marks).toEqual([["0", "9"], ["1", "0"], ["2", "9"]]);
    board.destroy();
  });

  it("an order leaving the front of a hand keeps the other order cards' nodes, with their new index", () => {
    const ctx = makeCtx({ seat: 0 });
    const orders = [order("yellow", "normal", { salami: 4, pineapple: 1 }), order("yellow", "minimale", { pineapple: 1 }), order("yellow", "monotoni", { pineapple: 1 })];
    const before = fakeView({ hand: { ingredients: { pineapple: 3 }, orders } });
    const after = fakeView({ hand: { ingredients: { pineapple: 3 }, orders: orders.slice(1) } });
    const board = mount(host, ctx);
    board.update(frame(before), null, ctx);
    const cards = [...host.querySelectorAll(".mm-hand-cards .mm-order")];
    const made = created(() => board.update(frame(after, { step: 2 }), frame(before), ctx));
    expect(made.filter((n) => n.matches(".mm-order"))).toEqual([]);
    const now = [...host.querySelectorAll(".mm-hand-cards .mm-order")];
    expect(now).toEqual(cards.slice(1));
    expect(now.map((c) => c.dataset.index)).toEqual(["0", "1"]);
    board.destroy();
  });

  it("a revealed card joins the strip of the last eight without touching the others", () => {
    const ctx = makeCtx({ seat: null });
    const frames = [9, 10].map((n) => {
      const revealed = Array.from({ length: n }, (_, i) => ({ type: "ingredient", kind: CLASSIC_KINDS[i % 5], seat: 0 }));
      const v = fakeView({ phase: "evaluation", to_move: null, evaluation: { emptier: 2, revealed, remaining: 12 - n, order: null, decision: null } });
      return frame(v, { sub: n, kind: "reveal", data: { kind: CLASSIC_KINDS[(n - 1) % 5], count: 1, seat: 0 }, last: false });
    });
    const board = mount(host, ctx);
    board.update(frames[0], null, ctx);
    const strip = host.querySelector(".mm-revealed");
    const stay = [...strip.children].slice(1);
    const observer = new MutationObserver(() => {});
    observer.observe(strip, { subtree: true, childList: true, attributes: true, characterData: true });
    board.update(frames[1], frames[0], ctx);
    const records = observer.takeRecords();
    observer.disconnect();
    // One card out at the left, one in at the right; the seven between are not touched.
    expect(records.map((r) => [r.type, r.target === strip, r.addedNodes.length, r.removedNodes.length])).toEqual([
      ["childList", true, 0, 1],
      ["childList", true, 1, 0],
    ]);
    expect([...strip.children].slice(0, 7)).toEqual(stay);
    board.destroy();
  });
});

describe("cards drawn with few boxes", () => {
  it("an ingredient card's colour band is a layer of its background, not a box of its own", () => {
    // A ::before is one more box to style and lay out in every card of the table.
    expect(css).not.toMatch(/\.mm-ing::(before|after)/);
    expect(css).toMatch(/\.mm-ing, \.mm-root button\.mm-card\.mm-ing \{\s*background: linear-gradient\(var\(--mm-kind\), var\(--mm-kind\)\) top \/ 100% 6px no-repeat/);
  });

  it("a card's face takes its cream and ink as written colours, the same in every theme", () => {
    // A var() is resolved again for every card styled.
    expect(css).not.toMatch(/--mm-face/);
    const card = ingredientCard("salami", {}, document);
    host.append(card);
    host.classList.add("mm-root");
    const style = document.createElement("style");
    style.textContent = css;
    document.head.append(style);
    expect(getComputedStyle(card).color).toBe("rgb(42, 33, 24)");
    style.remove();
  });
});

describe("marks set by the renderer, not found by the stylesheet", () => {
  // A :has() rule is tested again on every node built or removed under the elements it may
  // match (every seat, card and fan of the table): the renderer sets these marks itself.
  it("the stylesheet has no :has() rule", () => {
    expect(css).not.toMatch(/:has\(/);
  });

  it("a seat to move right after its own turn keeps its \"just played\" words for a screen reader only", () => {
    const ctx = makeCtx({ seat: null });
    const board = mount(host, ctx);
    const data = { seat: 0, put: { kind: "salami", count: 3 }, order: false, source: "supply", drew: 3 };
    const last = (seat) => host.querySelector(`.mm-seat[data-seat="${seat}"] .mm-badge-last`);
    board.update(frame(fakeView({ to_move: 0 }), { data }), null, ctx);
    expect(last(0).hidden).toBe(false);
    expect(last(0).classList.contains("mm-badge-quiet")).toBe(true);
    board.update(frame(fakeView({ to_move: 1 }), { step: 2, data }), null, ctx);
    expect(last(0).hidden).toBe(false);
    expect(last(0).classList.contains("mm-badge-quiet")).toBe(false);
    expect(host.querySelectorAll(".mm-badge-quiet").length).toBe(0);
    board.destroy();
  });

  it("the table's heading gives its line to the legend of a made order's marks, and takes it back", () => {
    const ctx = makeCtx({ seat: null });
    const board = mount(host, ctx);
    const made = { owner: 0, colour: "yellow", type: "normal", name: "Normale", recipe: { salami: 2 }, result: "made", from_table: { salami: 2 }, from_hand: {}, from_helper: {} };
    const evaluation = (order) => ({ emptier: 2, revealed: [], remaining: 3, order, decision: null });
    const box = () => host.querySelector(".mm-table-box");
    board.update(frame(fakeView({ phase: "evaluation", to_move: null, evaluation: evaluation(made) }), { kind: "reveal" }), null, ctx);
    expect(box().querySelector(".mm-legend")).not.toBeNull();
    expect(box().classList.contains("mm-with-legend")).toBe(true);
    board.update(frame(fakeView({ phase: "evaluation", to_move: null, evaluation: evaluation(null) }), { step: 2, kind: "reveal" }), null, ctx);
    expect(box().querySelector(".mm-legend")).toBeNull();
    expect(box().classList.contains("mm-with-legend")).toBe(false);
    board.destroy();
  });

  it("a fanned card holding the keyboard's focus is marked to come forward, and unmarked when it leaves", () => {
    const ctx = makeCtx({ seat: 0 });
    const board = mount(host, ctx);
    board.update(frame(fakeView()), null, ctx);
    const item = host.querySelector(".mm-hand-cards > *");
    const target = item.querySelector(".mm-card");
    // jsdom has no keyboard modality: the check of :focus-visible is stood in for.
    const matches = vi.spyOn(target, "matches").mockImplementation((sel) => sel === ":focus-visible");
    target.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
    expect(item.classList.contains("mm-focus")).toBe(true);
    target.dispatchEvent(new FocusEvent("focusout", { bubbles: true }));
    expect(item.classList.contains("mm-focus")).toBe(false);
    // Focus that came with a click (not :focus-visible) leaves the card in its fan.
    matches.mockImplementation(() => false);
    target.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
    expect(item.classList.contains("mm-focus")).toBe(false);
    board.destroy();
  });
});

describe("cleanup", () => {
  it("destroy removes the board and every listener it added", () => {
    const added = [];
    const removed = [];
    const add = vi.spyOn(EventTarget.prototype, "addEventListener").mockImplementation(function (type, fn) {
      added.push([this, type, fn]);
    });
    const remove = vi.spyOn(EventTarget.prototype, "removeEventListener").mockImplementation(function (type, fn) {
      removed.push([this, type, fn]);
    });
    try {
      const ctx = makeCtx({ interactive: true, legal: legalTurns() });
      const board = mount(host, ctx);
      board.update(frame(fakeView()), null, ctx);
      board.update(frame(evaluationView()), null, ctx);
      expect(added.length).toBeGreaterThan(0);
      board.destroy();
      for (const [target, type, fn] of added) {
        expect(removed.some(([t, ty, f]) => t === target && ty === type && f === fn)).toBe(true);
      }
      expect(host.children.length).toBe(0);
    } finally {
      add.mockRestore();
      remove.mockRestore();
    }
  });
});

describe("inside the shared timeline", () => {
  it("plays a composed turn through the model, at the match's cursor", async () => {
    const widget = (await import("../src/mamma_mia.js")).default;
    const handlers = {};
    const traits = { game: "mamma-mia", seat_names: ["Yellow", "Green", "Brown"], seat: 0, cursor: 1, current: null, error: "", bot_seats: [1, 2], settings: { tally: false } };
    const model = {
      sent: [],
      get: (k) => traits[k],
      set: (k, v) => (traits[k] = v),
      on: (name, fn) => ((handlers[name] ||= []).push(fn)),
      off: (name, fn) => (handlers[name] = (handlers[name] || []).filter((f) => f !== fn)),
      send(msg) { this.sent.push(msg); },
      save_changes() {},
    };
    const deliver = (msg) => (handlers["msg:custom"] || []).forEach((fn) => fn(msg, []));
    const cleanup = widget.render({ model, el: host });
    expect(model.sent).toEqual([{ type: "hello" }]);
    deliver({ type: "frames", from: 0, frames: [frame(fakeView(), { step: 0, kind: "setup" }), frame(fakeView())] });
    deliver({ type: "legal", step: 1, to_move: 0, actions: legalTurns() });
    deliver({ type: "goto", step: 1 });
    host.querySelectorAll('.mm-hand-group[data-kind="olive"] button')[1].click();
    host.querySelector('[data-action="source"][data-source="supply"]').click();
    host.querySelector('[data-action="play-turn"]').click();
    expect(model.sent.at(-1)).toEqual({ type: "play", action: "put 2 olive; draw supply", step: 1, id: expect.any(String) });
    const sent = model.sent.length;
    host.querySelector('[data-action="tally"]').click();
    expect(model.sent.length).toBe(sent);
    expect(traits.settings.tally).toBe(true);
    expect(host.querySelector(".mm-tally")).not.toBeNull();
    // An earlier frame is not the cursor's: nothing to play there.
    host.querySelector(".tw-first").click();
    expect(host.querySelector(".mm-composer")).toBeNull();
    cleanup();
    expect(host.children.length).toBe(0);
    expect(Object.values(handlers).every((list) => list.length === 0)).toBe(true);
  });
});

describe("one action per click", () => {
  it("a double click on an answer sends it once", () => {
    const legal = ["make adding 1 pineapple", "send back"];
    const ctx = makeCtx({ seat: 1, interactive: true, legal });
    const board = mount(host, ctx);
    board.update(frame(evaluationView(), { kind: "reveal" }), null, ctx);
    host.querySelector('.mm-decision button[data-notation="send back"]').click();
    host.querySelector('.mm-decision button[data-notation="send back"]').click();
    expect(ctx.play).toHaveBeenCalledTimes(1);
    board.destroy();
  });
});

describe("optional actions (the Czech reading)", () => {
  it("offers not drawing and drawing fewer cards when the notation allows it", () => {
    const legal = ["pass", "draw supply", "draw 1 from supply", "put 1 olive", "put 1 olive; draw supply", "put 1 olive; draw 1 from supply", "put 1 olive; draw 2 from supply"];
    const ctx = makeCtx({ interactive: true, legal });
    const board = mount(host, ctx);
    board.update(frame(fakeView()), null, ctx);
    host.querySelector('.mm-hand-group[data-kind="olive"] button').click();
    expect([...host.querySelectorAll('[data-action="source"]')].map((b) => b.dataset.source)).toEqual(["none", "supply"]);
    host.querySelector('[data-action="source"][data-source="supply"]').click();
    const select = host.querySelector("select.mm-draw-count");
    expect([...select.options].map((o) => o.value)).toEqual(["", "1", "2"]);
    select.value = "2";
    select.dispatchEvent(new Event("change", { bubbles: true }));
    host.querySelector('[data-action="play-turn"]').click();
    expect(ctx.play).toHaveBeenLastCalledWith("put 1 olive; draw 2 from supply");
    board.destroy();

    // Nothing chosen and no draw: the whole turn is skipped.
    const ctx2 = makeCtx({ interactive: true, legal });
    const board2 = mount(host, ctx2);
    board2.update(frame(fakeView(), { step: 2 }), null, ctx2);
    host.querySelector('[data-action="source"][data-source="none"]').click();
    host.querySelector('[data-action="play-turn"]').click();
    expect(ctx2.play).toHaveBeenLastCalledWith("pass");
    board2.destroy();
  });
});

describe("the cards just played", () => {
  let host2;
  beforeEach(() => {
    host2 = document.createElement("div");
    document.body.append(host2);
  });
  afterEach(() => host2.remove());

  const turn = (data) => frame(fakeView(), { kind: "turn", data });

  it("reads the turn's public data and finds its cards at the top of the oven", () => {
    const played = lastPlayed(turn({ seat: 0, put: { kind: "salami", count: 3 }, order: false, source: "supply", drew: 3 }));
    expect(played).toEqual({ seat: 0, put: { kind: "salami", count: 3 }, order: false, source: "supply", drew: 3 });
    expect([...playedEntries(fakeView().oven.log, played)]).toEqual([2]);
    // An order on top of the same seat's ingredients: both are the turn's.
    const log = [...fakeView().oven.log, { seat: 0, order: "yellow" }];
    expect([...playedEntries(log, { ...played, order: true })].sort()).toEqual([2, 3]);
    // Another seat's entry is never taken for this turn's.
    expect([...playedEntries(fakeView().oven.log, { ...played, seat: 1 })]).toEqual([]);
    expect(lastPlayed(frame(fakeView(), { kind: "reveal", data: { seat: 0 } }))).toBeNull();
  });

  it("marks them in the oven's log, on the player's seat and in the last turn's box", () => {
    const board = mount(host2, makeCtx());
    board.update(turn({ seat: 0, put: { kind: "salami", count: 3 }, order: false, source: "supply", drew: 3 }), null, makeCtx());
    const fresh = [...host2.querySelectorAll(".mm-log li.mm-log-new")];
    expect(fresh.length).toBe(1);
    expect(fresh[0].dataset.kind).toBe("salami");
    // (its "new" badge is the entry's own, shown by its class: the browser test reads it)
    expect(host2.querySelector('.mm-seat[data-seat="0"]').classList.contains("mm-just-moved")).toBe(true);
    const box = host2.querySelector(".mm-last-turn");
    expect(box.textContent).toContain("Yellow put 3 salami in the oven, drew 3 from the supply.");
    expect(box.querySelector('.mm-just-played[data-kind="salami"]')).not.toBeNull();
    board.update(turn({ seat: 1, put: { kind: "olive", count: 1 }, order: false, source: "waiter", drew: 1 }), null, makeCtx());
    expect(box.textContent).toContain("put 1 olive in the oven, drew 1 order from their waiter.");
    board.update(turn({ seat: 1, put: { kind: "olive", count: 2 }, order: false, source: "waiter", drew: 2 }), null, makeCtx());
    expect(box.textContent).toContain("drew 2 orders from their waiter.");
    // The next frame (no turn) drops every mark.
    board.update(frame(fakeView(), { kind: "oven-closed", step: 2 }), null, makeCtx());
    expect(host2.querySelector(".mm-log-new, .mm-just-moved, .mm-just-played")).toBeNull();
    board.destroy();
  });

  it("compresses a tall table column into the same height", () => {
    const board = mount(host2, makeCtx());
    board.update(frame(fakeView({ table: { salami: 15, pineapple: 2, mushroom: 0, pepper: 0, olive: 0 } })), null, makeCtx());
    const step = (kind) => host2.querySelector(`.mm-column[data-kind="${kind}"] .mm-column-stack`).style.getPropertyValue("--mm-step");
    expect(parseFloat(step("salami"))).toBeCloseTo(50 / 14, 1);
    expect(step("pineapple")).toBe("12.00px");
    board.destroy();
  });
});

describe("fanned rows without container queries", () => {
  it("shrinks a row as CSS flexbox does: in proportion to the basis, down to each minimum", async () => {
    const { shrinkToFit } = await import("../src/dom.js");
    // Room for all: every card keeps its basis.
    expect(shrinkToFit(500, [{ basis: 150, shrink: 1 }, { basis: 150, shrink: 0 }], 2)).toEqual([150, 150]);
    // 100 px short: the two shrinking cards give up 50 px each (equal bases), the last none.
    expect(shrinkToFit(352, [{ basis: 150, shrink: 1 }, { basis: 150, shrink: 1 }, { basis: 150, shrink: 0 }], 1)).toEqual([100, 100, 150]);
    // Proportional to the basis: 102 and 42 give up 2:1 ... until the small one meets its minimum,
    // which is frozen there, and the big one takes the rest of the shortfall.
    const sizes = shrinkToFit(150, [{ basis: 102, min: 28, shrink: 1 }, { basis: 42, min: 40, shrink: 1 }, { basis: 72, shrink: 0 }], 0);
    expect(sizes[1]).toBe(40);
    expect(sizes[2]).toBe(72);
    expect(sizes[0]).toBeCloseTo(150 - 40 - 72);
  });

  it("marks the hand's covered cards from the row's observed width, and the last card never", () => {
    const observed = [];
    const RO = globalThis.ResizeObserver;
    globalThis.ResizeObserver = class {
      constructor(cb) { this.cb = cb; }
      observe(node) { observed.push([this, node]); }
      unobserve() {}
      disconnect() {}
    };
    try {
      const ctx = makeCtx();
      const board = mount(host, ctx);
      // Yellow: 3 pineapple, 2 olive (piles of 132 and 102 px), two orders (150 px each).
      board.update(frame(fakeView()), null, ctx);
      const row = host.querySelector(".mm-hand-cards");
      const [[ro]] = observed.filter(([, node]) => node === row);
      const covered = () => [...row.children].map((c) => c.classList.contains("mm-covered"));
      // Before the page has laid the row out, nothing is guessed.
      expect(covered()).toEqual([false, false, false, false]);
      const resize = (width) => ro.cb([{ target: row, contentBoxSize: [{ inlineSize: width }] }]);
      resize(800); // 132 + 102 + 150 + 150 + 3 gaps: room for all
      expect(covered()).toEqual([false, false, false, false]);
      resize(400); // 140 px short: every card but the last gives up width
      expect(covered()).toEqual([true, true, true, false]);
      // A new frame is marked from the width kept, without the observer: Yellow's first order
      // gone, the olives and the last order now fit (132 + 102 + 150 + 2 gaps = 388).
      const view = fakeView();
      board.update(frame({ ...view, hand: { ...view.hand, orders: view.hand.orders.slice(1) } }, { step: 2 }), null, ctx);
      expect(covered()).toEqual([false, false, false]);
    } finally {
      globalThis.ResizeObserver = RO;
    }
  });
});

describe("words under the pointer", () => {
  it("a count's words are set in place as a tip, given to the title of what the pointer comes over or the focus takes, and kept current there", () => {
    const ctx = makeCtx({ seat: null });
    const before = frame(fakeView({ hand: undefined }));
    const after = frame(fakeView({ hand: undefined, supply: 19, table: { salami: 3, pineapple: 3, mushroom: 4, pepper: 3, olive: 0 },
      oven: { ...fakeView().oven, size: 8 } }), { step: 2 });
    const board = mount(host, ctx);
    board.update(before, null, ctx);
    const oven = host.querySelector(".mm-pile-oven");
    const supply = host.querySelector(".mm-pile-supply");
    const salami = host.querySelector('.mm-column[data-kind="salami"] .mm-column-head');
    const hand = host.querySelector(".mm-hand-size");
    const tips = [oven, supply, salami, hand];
    expect(tips.map((n) => n.dataset.tip)).toEqual(["cards: 6", "cards: 20", "2 salami on the table", "5 ingredient cards and 2 order cards in hand"]);
    expect(tips.filter((n) => n.hasAttribute("title"))).toEqual([]);
    // The pointer over the oven's count (a part of the pile) gives the pile its title.
    oven.querySelector(".mm-pile-count").dispatchEvent(new Event("pointerover", { bubbles: true }));
    expect(oven.title).toBe("cards: 6");
    board.update(after, before, ctx);
    expect(tips.map((n) => n.dataset.tip)).toEqual(["cards: 8", "cards: 19", "3 salami on the table", "5 ingredient cards and 2 order cards in hand"]);
    expect(oven.title).toBe("cards: 8");
    expect(tips.filter((n) => n.hasAttribute("title"))).toEqual([oven]);
    // A card set in place keeps its name for a screen reader, its words as a tip.
    const card = host.querySelector('.mm-column[data-kind="salami"] .mm-card');
    expect(card.getAttribute("aria-label")).toBe(card.dataset.tip);
    expect(card.hasAttribute("title")).toBe(false);
    card.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
    expect(card.title).toBe(card.dataset.tip);
    board.destroy();
  });
});

describe("a card laid on a table column", () => {
  it("keeps the top card's node and builds one bare edge under it", () => {
    const ctx = makeCtx({ seat: null });
    const salami = { type: "ingredient", kind: "salami", seat: 0 };
    const frames = [1, 2].map((n) => frame(fakeView({ phase: "evaluation", to_move: null,
      table: { salami: n, pineapple: 0, mushroom: 0, pepper: 0, olive: 0 },
      evaluation: { emptier: 2, revealed: Array.from({ length: n }, () => salami), remaining: 4 - n, order: null, decision: null } }),
    { sub: n, kind: "reveal", data: { kind: "salami", count: 1, seat: 0 }, last: false }));
    const board = mount(host, ctx);
    board.update(frames[0], null, ctx);
    const column = () => [...host.querySelectorAll('.mm-column[data-kind="salami"] .mm-card')];
    const [top] = column();
    const made = created(() => board.update(frames[1], frames[0], ctx)).filter((n) => n.closest(".mm-column"));
    const [under, over] = column();
    expect(over).toBe(top);
    expect(made).toEqual([under]);
    expect(under.children.length).toBe(0); // an edge: no icon, no name
    expect(over.querySelector(".mm-card-name")).not.toBeNull();
    board.destroy();
  });
});
