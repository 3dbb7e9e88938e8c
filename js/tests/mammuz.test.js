// @vitest-environment jsdom
import { describe, it, expect, vi, beforeEach, afterEach } from "vitest";
import { created } from "./created.js";
import { ANIMALS, DINOS, DINOSAURS, SPECIES, cardBack, faceCard, sortCards } from "../src/mammuz_cards.js";
import widget, { animationsOf, css, isForward, layNotation, mount, parseAction } from "../src/mammuz.js";

const SEATS = ["Ada", "Bruno", "Carla", "Dario"];
const IN_PLAY = SPECIES.slice(0, 7);

/** A seat's observation shaped as `MammuzState.observe(seat)` returns it. */
function seatView(over = {}) {
  return {
    game: "mammuz",
    players: 4,
    seats: SEATS,
    to_move: 0,
    phase: "respond",
    species: IN_PLAY,
    species_size: Object.fromEntries(IN_PLAY.map((s) => [s, ANIMALS[s].number])),
    extinct: ["bear"],
    claim: "hare",
    starter: 2,
    hand_sizes: [5, 8, 7, 6],
    hand: { deer: 1, hare: 2, gopher: 1, tyrannosaurus: 1 },
    displays: [
      { seat: 2, size: 2, turned: {} },
      { seat: 3, size: 3, turned: {} },
    ],
    herd_size: 5,
    pile: 2,
    bases: { mammoth: 0, bear: 3, deer: 0, tiger: 0, hare: 0, squirrel: 0, gopher: 0 },
    dinosaurs_out: ["pterosaur"],
    turned: [],
    winners: [],
    scores: [-5, -8, -7, -6],
    options: { first_player: null, extinction: "in_play" },
    ...over,
  };
}

/** The all-seeing observation of the same moment: every hand and every display's cards. */
function allView(over = {}) {
  const v = seatView({ hand: null, ...over });
  v.hands = [
    { deer: 1, hare: 2, gopher: 1, tyrannosaurus: 1 },
    { tiger: 3, squirrel: 5 },
    { mammoth: 2, deer: 2, stegosaurus: 1 },
    { hare: 2, squirrel: 2, mouse: 0, gopher: 2 },
  ];
  v.displays = [
    { seat: 2, size: 2, turned: {}, cards: ["hare", "tiger"] },
    { seat: 3, size: 3, turned: {}, cards: ["gopher", "hare", "triceratops"] },
  ];
  v.pile_cards = ["deer", "mouse"];
  v.dinosaurs_in_play = ["pterosaur", "triceratops", "stegosaurus", "plesiosaur", "tyrannosaurus"];
  return { ...v, ...over };
}

const frame = (view, over = {}) => ({ step: 4, sub: 0, caption: "", kind: "lay", data: {}, view, last: true, ...over });

function makeCtx(over = {}) {
  return {
    seat: 0,
    seatNames: SEATS,
    interactive: false,
    legal: [],
    play: vi.fn(() => true),
    send: vi.fn(),
    settings: {},
    model: null,
    cursor: 4,
    toMove: 0,
    botSeats: [1, 2, 3],
    live: true,
    ...over,
  };
}

/** Every legal action of seat 0 in `seatView()` as the engine lists them. */
function respondLegal(view = seatView()) {
  // the engine offers a lay one decision at a time: the first card added starts it
  const kinds = Object.keys(view.hand).filter((c) => view.hand[c] > 0);
  return ["challenge 1", "challenge 2", "challenge 3", ...sortCards(kinds).map((c) => `add ${c}`)];
}

let host;
beforeEach(() => {
  host = document.createElement("div");
  document.body.append(host);
});
afterEach(() => {
  host.remove();
});

describe("cards", () => {
  it("draws every animal with its own icon, its own colour and its species number", () => {
    const shapes = new Set();
    const colours = new Set();
    for (const species of SPECIES) {
      const card = faceCard(species);
      const icon = card.querySelector("svg.mz-icon");
      expect(icon.getAttribute("data-card")).toBe(species);
      shapes.add(icon.innerHTML);
      colours.add(card.style.getPropertyValue("--mz-card"));
      expect(card.querySelector(".mz-number").textContent).toBe(String(ANIMALS[species].number));
      expect(card.getAttribute("aria-label")).toBe(ANIMALS[species].label);
    }
    expect(shapes.size).toBe(SPECIES.length);
    expect(colours.size).toBe(SPECIES.length);
    // The species numbers are the card counts 2…9.
    expect(SPECIES.map((s) => ANIMALS[s].number)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("draws each dinosaur differently from the others and from every animal, with its effect as title", () => {
    const shapes = new Set(SPECIES.map((s) => faceCard(s).querySelector("svg").innerHTML));
    for (const d of DINOSAURS) {
      const card = faceCard(d);
      expect(card.classList.contains("mz-dino")).toBe(true);
      expect(card.title).toContain(DINOS[d].effect);
      shapes.add(card.querySelector("svg").innerHTML);
    }
    expect(shapes.size).toBe(SPECIES.length + DINOSAURS.length);
  });

  it("a card back shows nothing of a face", () => {
    const back = cardBack();
    expect(back.dataset.card).toBeUndefined();
    expect(back.querySelector("svg")).toBeNull();
  });
});

describe("the notation", () => {
  it("composes lays in the engine's card order and parses every kind of action", () => {
    expect(layNotation("hare", ["gopher", "hare", "tyrannosaurus", "hare"])).toBe("lay hare: hare hare gopher tyrannosaurus");
    expect(layNotation("mouse", ["brontosaurus", "mammoth"])).toBe("lay mouse: mammoth brontosaurus");
    expect(parseAction("lay hare: hare gopher")).toMatchObject({ type: "lay", species: "hare", cards: ["hare", "gopher"] });
    expect(parseAction("challenge 3")).toMatchObject({ type: "challenge", position: 3 });
    expect(parseAction("give 0")).toMatchObject({ type: "give", seat: 0 });
    expect(parseAction("claim hare")).toMatchObject({ type: "claim", species: "hare" });
    expect(parseAction("add gopher")).toMatchObject({ type: "add", card: "gopher" });
    expect(parseAction("done")).toMatchObject({ type: "done" });
  });
});

describe("the seat view", () => {
  it("shows its own hand and no face of any other seat's cards, only backs", () => {
    const ctx = makeCtx();
    const board = mount(host, ctx);
    board.update(frame(seatView()), null, ctx);
    // Own hand: exactly the observation's cards.
    const own = [...host.querySelectorAll(".mz-hand .mz-card")].map((c) => c.dataset.card);
    expect(own).toEqual(["deer", "hare", "hare", "gopher", "tyrannosaurus"]);
    // The other displays are backs: 2 + 3 of them, no card faces.
    const shown = host.querySelectorAll(".mz-display .mz-card");
    expect(shown.length).toBe(5);
    expect([...shown].every((c) => c.classList.contains("mz-back") && c.dataset.card === undefined)).toBe(true);
    // No "every hand" panel, and the hidden-card names of the all-seeing fixture never appear.
    expect(host.querySelector(".mz-teaching")).toBeNull();
    expect(host.querySelectorAll(".mz-seat .mz-backs .mz-card").length).toBe(5 + 8 + 7 + 6);
    expect(host.querySelector('.mz-seat[data-seat="1"]').dataset.hand).toBe("8");
    expect(host.querySelectorAll(".mz-hands .mz-hand").length).toBe(1);
    board.destroy();
  });

  it("shows a turned card face up and the seat's own display face down but known", () => {
    const ctx = makeCtx({ seat: 3 });
    const view = seatView({
      to_move: 0,
      hand: { hare: 1, squirrel: 2, gopher: 1 },
      displays: [
        { seat: 2, size: 2, turned: {} },
        { seat: 3, size: 3, turned: { 2: "hare" }, cards: ["gopher", "hare", "triceratops"] },
      ],
    });
    const board = mount(host, ctx);
    board.update(frame(view), null, ctx);
    const other = host.querySelectorAll('.mz-display[data-seat="2"] .mz-card');
    expect([...other].every((c) => c.classList.contains("mz-back"))).toBe(true);
    const mine = [...host.querySelectorAll('.mz-display[data-seat="3"] .mz-card')];
    expect(mine.map((c) => c.dataset.card)).toEqual(["gopher", "hare", "triceratops"]);
    expect(mine[1].classList.contains("mz-turned")).toBe(true);
    expect(mine[0].classList.contains("mz-known")).toBe(true);
    board.destroy();
  });

  it("the all-seeing view shows every hand and every display, and says so", () => {
    const ctx = makeCtx({ seat: null });
    const board = mount(host, ctx);
    board.update(frame(allView()), null, ctx);
    expect(host.querySelector(".mz-teaching h4").textContent).toContain("all-seeing");
    expect(host.querySelectorAll(".mz-hands .mz-hand").length).toBe(4);
    expect([...host.querySelectorAll('.mz-display[data-seat="3"] .mz-card')].map((c) => c.dataset.card)).toEqual(["gopher", "hare", "triceratops"]);
    expect(host.textContent).toContain("dinosaurs dealt");
    board.destroy();
  });

  it("a herd being started: the status says who lays, the herd shows the display being laid", () => {
    // Dario named tigers and has put two cards face down: Ada sees their backs, Dario his cards.
    const lay = { phase: "lay", to_move: 3, claim: null, displays: [], laying: { seat: 3, species: "tiger", count: 2 } };
    const ctx = makeCtx();
    const board = mount(host, ctx);
    board.update(frame(seatView(lay)), null, ctx);
    expect(host.querySelector(".mz-slot-status").textContent).toBe("Dario lays cards face down as a herd of tigers: 2 so far.");
    const head = host.querySelector(".mz-herd-box h4").textContent;
    expect(head).toBe("A new herd of tigers");
    const laying = [...host.querySelectorAll('.mz-display-laying[data-seat="3"] .mz-card')];
    expect(laying.length).toBe(2);
    expect(laying.every((c) => c.classList.contains("mz-back") && c.dataset.card === undefined)).toBe(true);
    const own = makeCtx({ seat: 3 });
    board.update(frame(seatView({ ...lay, laying: { ...lay.laying, cards: ["tiger", "hare"] } })), null, own);
    expect([...host.querySelectorAll(".mz-display-laying .mz-card")].map((c) => c.dataset.card)).toEqual(["tiger", "hare"]);
    // The next card laid: the status line counts it too.
    board.update(frame(seatView({ ...lay, laying: { ...lay.laying, count: 3, cards: ["tiger", "hare", "hare"] } })), null, own);
    // In Dario's own view, the status line speaks to him.
    expect(host.querySelector(".mz-slot-status").textContent).toBe("You lay cards face down as a herd of tigers: 3 so far.");
    expect(host.querySelectorAll(".mz-display-laying .mz-card").length).toBe(3);
    board.destroy();
  });

  it("marks a herd being laid and a hand with no composer under it itself: the stylesheet has no :has() rule", () => {
    // A :has() rule is tested again on every node built or removed under what it may match.
    expect(css).not.toMatch(/:has\(/);
    const lay = { phase: "lay", to_move: 3, claim: null, displays: [], laying: { seat: 3, species: "tiger", count: 2 } };
    const ctx = makeCtx();
    const board = mount(host, ctx);
    const hands = () => host.querySelector(".mz-slot-hands").classList.contains("mz-no-composer");
    board.update(frame(seatView(lay)), null, ctx);
    expect(host.querySelector(".mz-herd-box").classList.contains("mz-with-laying")).toBe(true);
    expect(hands()).toBe(true);
    // Ada's turn to answer: the composer shows under her hand, which gives it its room back.
    const answer = makeCtx({ interactive: true, legal: respondLegal() });
    board.update(frame(seatView()), null, answer);
    expect(host.querySelector(".mz-slot-composer").firstChild).not.toBeNull();
    expect(hands()).toBe(false);
    expect(host.querySelector(".mz-herd-box").classList.contains("mz-with-laying")).toBe(false);
    board.update(frame(seatView(), { step: 5 }), null, ctx);
    expect(hands()).toBe(true);
    board.destroy();
  });

  it("a card turned in the last display builds that card alone", () => {
    const ctx = makeCtx();
    const board = mount(host, ctx);
    const laid = frame(seatView(), { kind: "lay" });
    const view = seatView({ displays: [{ seat: 2, size: 2, turned: {} }, { seat: 3, size: 3, turned: { 2: "hare" } }], turned: [{ challenger: 0, displayer: 3, card: "hare" }] });
    const turned = frame(view, { step: 5, kind: "turn", data: { position: 2 } });
    board.update(laid, null, ctx);
    const display = host.querySelector(".mz-display-last");
    const made = created(() => board.update(turned, laid, ctx));
    // The display and its other cards keep their nodes; card 2 is drawn turned up.
    expect(host.querySelector(".mz-display-last")).toBe(display);
    expect(made.filter((n) => n.matches(".mz-card")).map((n) => n.dataset.position)).toEqual(["2"]);
    const card = display.querySelector('[data-position="2"]');
    expect([card.dataset.card, card.getAttribute("aria-label")]).toEqual(["hare", "Hare, turned up, just challenged"]);
    expect([...display.querySelectorAll(".mz-card")].map((n) => n.dataset.card ?? "back")).toEqual(["back", "hare", "back"]);
    board.destroy();
  });

  it("the status line reads \"you\" in the deciding seat's own view, its name in every other", () => {
    const board = mount(host, makeCtx());
    const status = () => host.querySelector(".mz-slot-status").textContent;
    const responding = seatView();
    const laid = SEATS[responding.displays.at(-1).seat];
    board.update(frame(responding), null, makeCtx());
    expect(status()).toBe(`You expand the herd of hares or challenge ${laid}.`);
    board.update(frame(responding), null, makeCtx({ seat: 1 }));
    expect(status()).toBe(`Ada expands the herd of hares or challenges ${laid}.`);
    board.update(frame(responding), null, makeCtx({ seat: null }));
    expect(status()).toBe(`Ada expands the herd of hares or challenges ${laid}.`);
    const starting = seatView({ phase: "start", claim: null, displays: [] });
    board.update(frame(starting), null, makeCtx());
    expect(status()).toBe("You start a new herd: name a species and lay 1–4 cards face down.");
    board.update(frame(seatView({ phase: "give" })), null, makeCtx());
    expect(status()).toBe("Triceratops: you pick who takes the herd.");
    board.update(frame(seatView({ phase: "give" })), null, makeCtx({ seat: 2 }));
    expect(status()).toBe("Triceratops: Ada picks who takes the herd.");
    board.destroy();
  });

  it("marks extinct species on their bases and counts the cards there", () => {
    const ctx = makeCtx();
    const board = mount(host, ctx);
    board.update(frame(seatView()), null, ctx);
    const bear = host.querySelector('.mz-base[data-species="bear"]');
    expect(bear.dataset.extinct).toBe("true");
    expect(bear.textContent).toContain("3/3");
    expect(host.querySelector('.mz-base[data-species="hare"]').dataset.extinct).toBe("false");
    expect(host.querySelectorAll(".mz-base").length).toBe(7);
    expect(host.querySelector(".mz-pile").dataset.count).toBe("2");
    expect(host.querySelector(".mz-out .mz-card").dataset.card).toBe("pterosaur");
    board.destroy();
  });
});

describe("playing", () => {
  it("composing a lay sends one whole lay in the engine's notation, offered once it is complete", () => {
    const legal = respondLegal();
    const ctx = makeCtx({ interactive: true, legal });
    const board = mount(host, ctx);
    board.update(frame(seatView()), null, ctx);
    const layBtn = () => host.querySelector("button.mz-lay");
    expect(layBtn().disabled).toBe(true);
    const cards = () => [...host.querySelectorAll(".mz-hand button.mz-card")];
    // Pick the tyrannosaurus first, then a hare: the notation still lists cards in card order.
    cards().find((c) => c.dataset.card === "tyrannosaurus").click();
    cards().find((c) => c.dataset.card === "hare").click();
    expect(layBtn().disabled).toBe(false);
    layBtn().click();
    expect(ctx.play).toHaveBeenCalledTimes(1);
    expect(ctx.play).toHaveBeenCalledWith("lay hare: hare tyrannosaurus");
    expect(legal.some((a) => a.startsWith("lay "))).toBe(false); // composed, not picked from a list
    board.destroy();
  });

  it("the hand shown turns into cards to pick when the lay is offered, and back when it is gone", () => {
    const shown = makeCtx({ interactive: false, legal: [] });
    const offered = makeCtx({ interactive: true, legal: respondLegal() });
    const board = mount(host, shown);
    const f = frame(seatView());
    board.update(f, null, shown);
    const n = host.querySelectorAll(".mz-hand .mz-card").length;
    expect(n).toBeGreaterThan(0);
    expect(host.querySelectorAll(".mz-hand button.mz-card").length).toBe(0);
    board.update(f, null, offered);
    expect(host.querySelectorAll(".mz-hand button.mz-card").length).toBe(n);
    board.update(f, null, shown);
    expect(host.querySelectorAll(".mz-hand button.mz-card").length).toBe(0);
    expect(host.querySelectorAll(".mz-hand .mz-card").length).toBe(n);
    board.destroy();
  });

  it("a new herd asks for a species among the live ones first", () => {
    const view = seatView({ phase: "start", claim: null, displays: [], herd_size: 0, starter: 0 });
    const live = IN_PLAY.filter((s) => s !== "bear");
    const legal = live.map((s) => `claim ${s}`);
    const ctx = makeCtx({ interactive: true, legal });
    const board = mount(host, ctx);
    board.update(frame(view), null, ctx);
    const speciesButtons = [...host.querySelectorAll("button.mz-species")];
    expect(speciesButtons.map((b) => b.dataset.species)).toEqual(live);
    host.querySelector('.mz-hand button[data-card="deer"]').click();
    host.querySelector('.mz-hand button[data-card="hare"]').click();
    expect(host.querySelector("button.mz-lay").disabled).toBe(true); // no species yet
    host.querySelector('button.mz-species[data-species="gopher"]').click();
    host.querySelector("button.mz-lay").click();
    expect(ctx.play).toHaveBeenCalledWith("lay gopher: deer hare");
    board.destroy();
  });

  it("never lets more than four cards be selected", () => {
    const ctx = makeCtx({ interactive: true, legal: respondLegal() });
    const board = mount(host, ctx);
    board.update(frame(seatView()), null, ctx);
    for (const c of [...host.querySelectorAll(".mz-hand button.mz-card")]) {
      const again = host.querySelector(`.mz-hand button[data-index="${c.dataset.index}"]`);
      again.click();
    }
    const pressed = host.querySelectorAll('.mz-hand button[aria-pressed="true"]');
    expect(pressed.length).toBe(4);
    expect(host.querySelector('.mz-hand button[aria-pressed="false"]').disabled).toBe(true);
    board.destroy();
  });

  it("clicking a card of the previous display sends `challenge k`; earlier displays are not clickable", () => {
    const ctx = makeCtx({ interactive: true, legal: respondLegal() });
    const board = mount(host, ctx);
    board.update(frame(seatView()), null, ctx);
    expect(host.querySelectorAll('.mz-display[data-seat="2"] button').length).toBe(0);
    const last = host.querySelectorAll('.mz-display[data-seat="3"] button.mz-card');
    expect(last.length).toBe(3);
    last[1].click();
    expect(ctx.play).toHaveBeenCalledWith("challenge 2");
    board.destroy();
  });

  it("without legal actions (another seat to move, or stepping back) nothing is clickable", () => {
    const ctx = makeCtx({ interactive: false, legal: respondLegal() });
    const board = mount(host, ctx);
    board.update(frame(seatView({ to_move: 1 })), null, ctx);
    expect(host.querySelectorAll(".mz-display button, .mz-hand button, button.mz-lay").length).toBe(0);
    host.querySelector(".mz-display .mz-card").click();
    expect(ctx.play).not.toHaveBeenCalled();
    board.destroy();
  });

  it("a lay begun one card at a time (from Python) is finished with its offered decisions", () => {
    const view = seatView({ phase: "lay", laying: { seat: 0, species: "hare", count: 1, cards: ["hare"] } });
    const legal = ["add hare", "add tyrannosaurus", "done"];
    const ctx = makeCtx({ interactive: true, legal });
    const board = mount(host, ctx);
    board.update(frame(view), null, ctx);
    const buttons = [...host.querySelectorAll(".mz-composer button")];
    expect(buttons.map((b) => b.dataset.notation)).toEqual(legal);
    buttons[2].click();
    expect(ctx.play).toHaveBeenCalledWith("done");
    board.destroy();
  });

  it("after a Triceratops the challenger picks who takes the herd from the legal gives", () => {
    const view = seatView({ phase: "give", displays: [{ seat: 3, size: 2, turned: { 1: "triceratops" } }] });
    const legal = ["give 0", "give 1", "give 2", "give 3"];
    const ctx = makeCtx({ interactive: true, legal });
    const board = mount(host, ctx);
    board.update(frame(view, { kind: "triceratops" }), null, ctx);
    const buttons = [...host.querySelectorAll(".mz-composer button")];
    expect(buttons.map((b) => b.dataset.notation)).toEqual(legal);
    expect(buttons[0].textContent).toContain("myself");
    expect(buttons[2].textContent).toContain("Carla");
    buttons[2].click();
    expect(ctx.play).toHaveBeenCalledWith("give 2");
    board.destroy();
  });
});

describe("sub-steps", () => {
  it("flips the turned card stepping forward, slides the herd to the taker, and redraws exactly stepping back", () => {
    const ctx = makeCtx({ seat: 1 });
    const laid = seatView({ to_move: 0, hand: { tiger: 3, squirrel: 5 } });
    const turned = JSON.parse(JSON.stringify(laid));
    turned.displays[1].turned = { 3: "gopher" };
    const taken = JSON.parse(JSON.stringify(turned));
    taken.displays = [];
    taken.claim = null;
    taken.phase = "start";
    taken.hand_sizes = [5, 8, 7, 11];
    const f0 = frame(laid, { step: 3 });
    const f1 = frame(turned, { step: 4, sub: 0, kind: "turn", data: { challenger: 0, displayer: 3, position: 3, card: "gopher" }, last: false });
    const f2 = frame(taken, { step: 4, sub: 1, kind: "take", data: { seat: 3, count: 5 }, last: false });

    const fresh = document.createElement("div");
    const alone = mount(fresh, ctx);
    alone.update(f1, null, ctx);

    vi.useFakeTimers();
    const board = mount(host, ctx);
    board.update(f0, null, ctx);
    // A scrub (frames drawn faster than a move is followed) animates nothing.
    vi.advanceTimersByTime(20);
    board.update(f1, f0, ctx);
    expect(host.querySelector(".mz-flip")).toBeNull();
    vi.advanceTimersByTime(20);
    board.update(f2, f1, ctx);
    expect(host.querySelector(".mz-arrive, .mz-slide, .mz-chip")).toBeNull();
    vi.advanceTimersByTime(700);
    board.update(f0, f1, ctx);
    vi.advanceTimersByTime(700);
    board.update(f1, f0, ctx);
    const flipped = host.querySelector(".mz-flip");
    expect(flipped.dataset.card).toBe("gopher");
    expect(flipped.dataset.position).toBe("3");
    vi.advanceTimersByTime(700);
    board.update(f2, f1, ctx);
    const taker = host.querySelector('.mz-seat[data-seat="3"]');
    expect(taker.classList.contains("mz-arrive")).toBe(true);
    // The last five backs of the taker's hand (11 cards) are the herd sliding in.
    const backs = [...taker.querySelectorAll(".mz-backs .mz-card")];
    expect(backs.length).toBe(11);
    expect(backs.map((b) => b.classList.contains("mz-slide"))).toEqual([...Array(6).fill(false), ...Array(5).fill(true)]);
    expect(taker.querySelector(".mz-chip").textContent).toBe("+5");
    board.update(f1, f2, ctx); // back: the earlier frame as a fresh render draws it
    expect(host.querySelector(".mz-flip, .mz-slide, .mz-chip")).toBeNull();
    expect(host.innerHTML).toBe(fresh.innerHTML);
    alone.destroy();
    board.destroy();
    vi.useRealTimers();
  });

  it("animates the Stegosaurus deal, extinctions and the Tyrannosaurus only when stepping forward", () => {
    const steg = animationsOf({ kind: "stegosaurus", data: { dealt: [2, 0, 1, 3] }, view: {} }, true);
    expect([...steg.chips]).toEqual([[0, "+2"], [2, "+1"], [3, "+3"]]);
    expect([...steg.arrived]).toEqual([[0, 2], [2, 1], [3, 3]]);
    const ext = animationsOf({ kind: "extinction", data: { species: "hare", seat: 1 }, view: {} }, true);
    expect(ext.bases.has("hare")).toBe(true);
    const rex = animationsOf({ kind: "tyrannosaurus", data: { cards: ["deer", "hare", "stegosaurus"] }, view: {} }, true);
    expect([...rex.bases]).toEqual(["deer", "hare"]);
    expect(rex.dinosaursOut).toBe(true);
    expect(animationsOf({ kind: "stegosaurus", data: { dealt: [2, 0, 1, 3] }, view: {} }, false).chips.size).toBe(0);
    const a = { step: 4, sub: 0, last: false };
    expect(isForward(a, { step: 4, sub: 1 })).toBe(true);
    expect(isForward({ step: 3, sub: 0, last: true }, { step: 4, sub: 0 })).toBe(true);
    expect(isForward({ step: 4, sub: 1 }, a)).toBe(false);
    expect(isForward(null, a)).toBe(false);
  });

  it("settings.animate = false draws the end of each sub-step without animation", () => {
    const ctx = makeCtx({ seat: 1, settings: { animate: false } });
    const board = mount(host, ctx);
    const v = seatView({ hand: { tiger: 3 } });
    const f0 = frame(v, { step: 3 });
    const f1 = frame(v, { step: 4, kind: "take", data: { seat: 2, count: 3 } });
    board.update(f0, null, ctx);
    board.update(f1, f0, ctx);
    expect(host.querySelector(".mz-arrive, .mz-chip")).toBeNull();
    board.destroy();
  });
});

describe("updating in place", () => {
  it("a lay builds the cards of the hand it changed only, and draws what a fresh render draws", () => {
    const ctx = makeCtx({ seat: null, legal: [] });
    const before = allView();
    const hands = before.hands.map((h, s) => (s === 2 ? { mammoth: 2, deer: 1, stegosaurus: 1 } : h));
    const after = allView({ hands, hand_sizes: [5, 8, 4, 6], to_move: 3 });
    const board = mount(host, ctx);
    board.update(frame(before), null, ctx);
    const rows = [...host.querySelectorAll(".mz-hand")];
    const carlas = [...host.querySelectorAll('.mz-hand[data-seat="2"] .mz-card')];
    // The lay drawn at a pace it can be followed at, as the fresh render below draws it.
    vi.useFakeTimers();
    vi.advanceTimersByTime(700);
    const made = created(() => board.update(frame(after, { step: 5 }), frame(before), ctx));
    vi.useRealTimers();
    // No row and no card of a hand is built: the cards Carla laid leave her row, those she
    // keeps are the nodes shown before (their index set again).
    expect(made.filter((n) => n.closest(".mz-hand"))).toEqual([]);
    const kept = [...host.querySelectorAll('.mz-hand[data-seat="2"] .mz-card')];
    expect(kept.length).toBe(4);
    expect(kept.length).toBeLessThan(carlas.length);
    for (const card of kept) expect(carlas).toContain(card);
    expect(kept.map((c) => c.dataset.index)).toEqual(["0", "1", "2", "3"]);
    expect([...host.querySelectorAll(".mz-hand")]).toEqual(rows);
    const fresh = document.createElement("div");
    mount(fresh, ctx).update(frame(after, { step: 5 }), frame(before), ctx);
    expect(host.innerHTML).toBe(fresh.innerHTML);
    board.destroy();
  });
});

  it("a seat's view after the all-seeing one draws what a fresh seat view draws", () => {
    const all = makeCtx({ seat: null, legal: [] });
    const ctx = makeCtx({ legal: [] });
    const board = mount(host, all);
    board.update(frame(allView()), null, all);
    board.update(frame(seatView()), null, ctx);
    const fresh = document.createElement("div");
    mount(fresh, ctx).update(frame(seatView()), null, ctx);
    expect(host.innerHTML).toBe(fresh.innerHTML);
    board.destroy();
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
      const ctx = makeCtx({ interactive: true, legal: respondLegal() });
      const board = mount(host, ctx);
      board.update(frame(seatView()), null, ctx);
      board.update(frame(allView(), { step: 5 }), null, makeCtx({ seat: null }));
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

  it("the whole widget (timeline + table) leaves no model or DOM listener after cleanup", () => {
    const handlers = new Map();
    const model = {
      traits: { game: "mammuz", seat_names: SEATS, seat: 0, cursor: 4, current: frame(seatView()), error: "", bot_seats: [1, 2, 3], settings: {} },
      get(k) {
        return this.traits[k];
      },
      set(k, v) {
        this.traits[k] = v;
      },
      on(name, fn) {
        handlers.set(name, [...(handlers.get(name) || []), fn]);
      },
      off(name, fn) {
        handlers.set(name, (handlers.get(name) || []).filter((f) => f !== fn));
      },
      send: vi.fn(),
      save_changes() {},
    };
    const cleanup = widget.render({ model, el: host });
    expect(host.querySelector(".mz-root")).not.toBeNull();
    expect(model.send).toHaveBeenCalledWith({ type: "hello" });
    // The kernel answers: the legal actions make the table playable; a challenge goes out.
    for (const fn of handlers.get("msg:custom")) fn({ type: "legal", step: 4, to_move: 0, actions: respondLegal() });
    host.querySelector('.mz-display[data-seat="3"] button.mz-card').click();
    expect(model.send).toHaveBeenLastCalledWith({ type: "play", action: "challenge 1", step: 4, id: expect.any(String) });
    cleanup();
    expect([...handlers.values()].every((list) => list.length === 0)).toBe(true);
    expect(host.children.length).toBe(0);
  });
});

describe("last-move marks and cards that stay cards", () => {
  let host;
  beforeEach(() => {
    host = document.createElement("div");
    document.body.append(host);
  });
  afterEach(() => host.remove());

  it("marks the last lay, the card a challenge just turned, and keeps the latest challenge in sight", () => {
    const board = mount(host, makeCtx());
    board.update(frame(seatView(), { kind: "lay" }), null, makeCtx());
    const last = host.querySelector('.mz-display[data-index="1"]');
    expect(last.classList.contains("mz-display-last")).toBe(true);
    expect(last.querySelector(".mz-last-badge").textContent).toBe("just laid");
    expect(host.querySelector('.mz-display[data-index="0"] .mz-last-badge')).toBeNull();

    const turned = seatView({ displays: [{ seat: 2, size: 2, turned: {} }, { seat: 3, size: 3, turned: { 2: "tiger" } }],
      turned: [{ displayer: 3, card: "tiger", challenger: 0 }] });
    board.update(frame(turned, { kind: "turn", data: { challenger: 0, displayer: 3, position: 2, card: "tiger" } }), null, makeCtx());
    const challenged = host.querySelectorAll(".mz-challenged");
    expect(challenged.length).toBe(1);
    expect(challenged[0].dataset.position).toBe("2");
    expect(challenged[0].getAttribute("aria-label")).toContain("just challenged");

    // The herd is gone (taken): the latest challenge is still told, with its card.
    board.update(frame(seatView({ displays: [], claim: null, phase: "start", turned: turned.turned }), { kind: "take", step: 5 }), null, makeCtx());
    const line = host.querySelector(".mz-last-challenge");
    expect(line.textContent).toContain("Ada turned a card of Dario");
    expect(line.dataset.card).toBe("tiger");
    board.destroy();
  });

  it("a challengeable face-down card is a card back button, and a species has one name", () => {
    const back = cardBack({ button: true });
    expect(back.tagName).toBe("BUTTON");
    expect(back.classList.contains("mz-back")).toBe(true);
    const tiger = faceCard("tiger");
    expect(tiger.querySelector(".mz-card-name").textContent).toBe("Tiger");
    expect(tiger.getAttribute("aria-label")).toBe("Tiger");
    expect(ANIMALS.tiger.plural).toBe("tigers");
    // Long names break at a soft hyphen on the card instead of running over its edge.
    expect(faceCard("tyrannosaurus").querySelector(".mz-card-name").textContent).toBe("Tyranno\u00adsaurus");
  });

  it("a frame that changes nothing of a region leaves its nodes in place", () => {
    const board = mount(host, makeCtx());
    board.update(frame(seatView(), { kind: "lay" }), null, makeCtx());
    const bases = host.querySelector(".mz-bases");
    const dario = host.querySelector('.mz-seat[data-seat="3"]');
    const ada = host.querySelector('.mz-seat[data-seat="0"] .mz-seat-name');
    board.update(frame(seatView({ hand_sizes: [5, 8, 7, 5] }), { kind: "starter", step: 5 }), null, makeCtx());
    expect(host.querySelector(".mz-bases")).toBe(bases);
    // A region that changed is patched: the same nodes, with the new count.
    expect(host.querySelector('.mz-seat[data-seat="3"]')).toBe(dario);
    expect(dario.dataset.hand).toBe("5");
    expect(dario.querySelector(".mz-hand-size b").textContent).toBe("5");
    expect(host.querySelector('.mz-seat[data-seat="0"] .mz-seat-name')).toBe(ada);
    board.destroy();
  });
});

describe("a hand's fan, from the row's width", () => {
  it("slides each card under the one before by what the row lacks, and covers names only when the cards do not fit", async () => {
    const { fanHand } = await import("../src/mammuz.js");
    const box = document.createElement("div");
    const row = document.createElement("div");
    box.append(row);
    row.style.setProperty("--n", "5");
    fanHand(row); // no width observed yet: nothing guessed
    expect(row.style.getPropertyValue("--mz-overlap")).toBe("");
    row._twWidth = 400; // 5 cards of 72 px side by side need 376 px
    fanHand(row);
    expect(row.style.getPropertyValue("--mz-overlap")).toBe("0px");
    expect(row.classList.contains("mz-covered")).toBe(false);
    row._twWidth = 300; // 60 px short over 4 overlaps: 15 px each, and the 4 px gap
    fanHand(row);
    expect(row.style.getPropertyValue("--mz-overlap")).toBe("-19px");
    expect(row.classList.contains("mz-covered")).toBe(true);
    row._twWidth = 100; // never more than the covered card's 12 px edge
    fanHand(row);
    expect(row.style.getPropertyValue("--mz-overlap")).toBe("-60px");
    // The all-seeing view's small cards: 26 px, down to a 7 px edge.
    box.classList.add("mz-teaching");
    row._twWidth = 120; // 5 × 26 = 130: 10 px short, 2.5 each, 2 px gaps
    fanHand(row);
    expect(row.style.getPropertyValue("--mz-overlap")).toBe("-4.5px");
  });
});
