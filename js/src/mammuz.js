// The MammuZ card table: the bases, the dinosaurs out of the game and the Plesiosaur pile; the
// round's herd, each display in front of its seat (face-down backs, the claim, turned cards
// face up); every seat's hand size; the viewing seat's hand; the lay composer, the challenge
// and the Triceratops choice. Every update redraws from `frame.view` alone, so stepping back
// re-renders an earlier moment exactly; `prev` only decides which sub-step gets an animation.
import { createGameWidget } from "./timeline.js";
import { drawn, fixed, morphChildren, paceWatch, reconcile, setText, shell, widthWatcher } from "./dom.js";
import { ANIMALS, CARDS, DINOS, cardBack, cardIcon, cardLabel, countsText, el, faceCard, herdOf, sortCards } from "./mammuz_cards.js";

export const css = `
.mz-root {
  /* The timeline's variables when inside it, else JupyterLab's, else light/dark fallbacks. */
  --mz-fg: var(--tw-fg, var(--jp-ui-font-color1, #1f1f1f));
  --mz-muted: var(--tw-fg2, var(--jp-ui-font-color2, #5f5f5f));
  --mz-bg: var(--tw-bg, var(--jp-layout-color1, #ffffff));
  --mz-panel: var(--tw-bg2, var(--jp-layout-color2, #eef1f4));
  --mz-border: var(--tw-border, var(--jp-border-color1, #c3c9d0));
  --mz-accent: var(--tw-brand, var(--jp-brand-color1, #1e6fd0));
  --mz-warn: var(--jp-warn-color1, #c77700);
  /* Colour roles, each with a shape of its own besides (docs/architecture.md lists them): the
     seat to move in the accent (a ring and a "to move" badge); your choices and the cards you
     may challenge in a teal (a raised card with a double ring and a tick; a dotted ring), apart
     from the cards' own colours; the last lay in the ink (a dashed frame, "last lay"); a card a
     challenge turned in a crimson (a solid ring; the latest one also a "?" tag); what the rules
     hold pending in the warning orange. The teal and the crimson are mixed with the ink, so
     they keep their contrast on a light and a dark page alike. */
  --mz-turn: var(--mz-accent);
  --mz-choice: color-mix(in srgb, #009688 65%, var(--mz-fg));
  --mz-last: var(--mz-fg);
  --mz-challenge: color-mix(in srgb, #c2185b 75%, var(--mz-fg));
  --mz-face: #fbfaf6;
  --mz-face-fg: #1f1a14;
  color: var(--mz-fg); background: var(--mz-bg);
  font-family: var(--jp-ui-font-family, system-ui, sans-serif);
  font-size: var(--jp-ui-font-size1, 13px);
  /* One footprint for every frame: fixed regions, each scrolling inside. */
  display: grid; grid-template-columns: minmax(240px, min(40%, 360px)) minmax(0, 1fr); grid-template-rows: 24px minmax(0, 1fr);
  gap: 6px; padding: 4px; height: var(--tw-table-height, 640px); overflow: hidden; box-sizing: border-box;
}
/* Each region's size comes from the grid, never from its content: a frame that redraws one
   region lays out that region alone. */
.mz-slot { min-height: 0; min-width: 0; overflow: auto; contain: strict; }
.mz-slot-status { grid-column: 1 / -1; overflow: hidden; white-space: nowrap; }
.mz-left, .mz-right { display: flex; flex-direction: column; gap: 6px; min-height: 0; min-width: 0; }
.mz-slot-middle { flex: none; contain: none; }
.mz-slot-seats { flex: 1 1 0; }
/* The herd takes what the hand (one row of cards; the all-seeing view's hands scroll) and the
   composer leave: seven displays of four cards fit. */
.mz-slot-herd { flex: 1 1 0; }
.mz-slot-herd > .mz-section { min-height: 100%; }
.mz-slot-hands { flex: 0 0 144px; }
.mz-slot-composer { flex: none; overflow: visible; contain: none; }
.mz-slot:empty { display: none; }
/* The hand stays where it is when a seat's turn comes and its composer shows: the composer keeps
   the room of the tallest (115 px, a herd to start beside the file browser), and while there is
   none the hand's region has that room under its cards (the hand had jumped 91 px up). The
   renderer marks it (mz-no-composer): a rule that looked at the next region would be tested
   again on every card drawn. */
.mz-right > .mz-slot-composer { min-height: 115px; }
.mz-root:not(.mz-every-hand) .mz-right > .mz-slot-hands.mz-no-composer { flex-basis: calc(144px + 6px + 115px); }
@media (prefers-color-scheme: dark) {
  .mz-root { --mz-fg: var(--tw-fg, var(--jp-ui-font-color1, #e6edf3)); --mz-muted: var(--tw-fg2, var(--jp-ui-font-color2, #9da7b3));
    --mz-bg: var(--tw-bg, var(--jp-layout-color1, #161b22)); --mz-panel: var(--tw-bg2, var(--jp-layout-color2, #21262d));
    --mz-border: var(--tw-border, var(--jp-border-color1, #3d444d)); --mz-accent: var(--tw-brand, var(--jp-brand-color1, #58a6ff)); }
}
.mz-root button { font: inherit; cursor: pointer; }
.mz-root button:disabled { cursor: not-allowed; opacity: 0.45; }
/* Cards that are buttons keep the card's own face and type over the timeline's button style
   (a face-down card stays a card back, a hand card a card face). */
.mz-root .mz-card, .mz-root button.mz-card { font-size: 11px; color: var(--mz-face-fg); background: var(--mz-face);
  border: 2px solid var(--mz-card, #888); border-radius: 6px; padding: 3px 1px; min-width: 0; }
.mz-root .mz-card.mz-dino, .mz-root button.mz-card.mz-dino { background: linear-gradient(160deg, var(--mz-face) 55%, color-mix(in srgb, var(--mz-card) 25%, var(--mz-face))); }
.mz-root .mz-card.mz-back, .mz-root button.mz-card.mz-back { background: repeating-linear-gradient(45deg, #274c77 0 5px, #3a6ea5 5px 10px); border-color: #17324f; color: #fff; }
.mz-root button.mz-card:disabled { opacity: 0.5; filter: grayscale(0.6); }
.mz-root .mz-card.mz-small { font-size: 11px; padding: 2px 1px; }
.mz-section { background: var(--mz-panel); border: 1px solid var(--mz-border); border-radius: 8px; padding: 6px 8px; }
.mz-section > h4 { margin: 0 0 4px 0; font-size: 0.95em; color: var(--mz-muted); font-weight: 600; }
.mz-row { display: flex; flex-wrap: wrap; gap: 8px; align-items: flex-start; }
.mz-status { display: flex; gap: 12px; flex-wrap: wrap; align-items: baseline; }
.mz-result { font-size: 1.1em; font-weight: 700; }
/* The warning orange mixed with the ink, for its contrast on a light and a dark page alike. */
.mz-must { color: color-mix(in srgb, var(--mz-warn) 70%, var(--mz-fg)); font-weight: 600; }
.mz-card {
  position: relative; box-sizing: border-box; width: 72px; height: 84px; margin: 0; padding: 3px 1px; flex: none;
  border-radius: 6px; border: 2px solid var(--mz-card, #888); background: var(--mz-face); color: var(--mz-face-fg);
  display: inline-flex; flex-direction: column; align-items: center; justify-content: center; gap: 2px;
  font-size: 11px; line-height: 1.1; text-align: center; box-shadow: 0 1px 2px rgba(0,0,0,0.25);
}
.mz-card::before { content: ""; position: absolute; left: 0; right: 0; top: 0; height: 5px; background: var(--mz-card, #888); border-radius: 3px 3px 0 0; }
.mz-card .mz-icon { width: 30px; height: 30px; flex: none; }
/* Long names break at their soft hyphens (Tyranno-saurus) rather than overflow the card. */
.mz-card-name { font-weight: 600; overflow: hidden; max-width: 100%; hyphens: manual; overflow-wrap: normal; letter-spacing: -0.2px; }
.mz-middle h4 { margin: 4px 0; font-size: 0.95em; color: var(--mz-muted); font-weight: 600; }
.mz-number { position: absolute; left: 3px; top: 6px; font-weight: 800; font-size: 11px; color: var(--mz-card); }
.mz-dino { background: linear-gradient(160deg, var(--mz-face) 55%, color-mix(in srgb, var(--mz-card) 25%, var(--mz-face))); }
.mz-small { width: 38px; height: 52px; }
.mz-small .mz-icon { width: 22px; height: 22px; }
.mz-small .mz-card-name { display: none; }
.mz-back { background: repeating-linear-gradient(45deg, #274c77 0 5px, #3a6ea5 5px 10px); border-color: #17324f; color: #fff; }
.mz-back::before { display: none; }
.mz-back-mark { font-weight: 900; font-size: 16px; text-shadow: 0 1px 1px #000; }
.mz-known { opacity: 0.8; outline: 2px dashed var(--mz-muted); outline-offset: -4px; }
.mz-turned { box-shadow: 0 0 0 3px var(--mz-challenge); }
.mz-bases { display: flex; gap: 4px; flex-wrap: wrap; align-items: flex-end; }
.mz-base { display: flex; flex-direction: column; align-items: center; gap: 1px; min-width: 40px; }
.mz-base-count { font-weight: 700; }
.mz-extinct .mz-card { filter: grayscale(0.7); }
.mz-extinct-mark { font-size: 0.85em; color: #fff; background: #8b1d1d; border-radius: 4px; padding: 0 4px; }
.mz-out, .mz-pile { display: flex; gap: 4px; align-items: center; flex-wrap: wrap; }
.mz-herd { display: flex; gap: 8px; flex-wrap: wrap; align-items: flex-start; }
.mz-display { display: flex; flex-direction: column; gap: 3px; padding: 4px; border-radius: 6px; border: 1px solid var(--mz-border); background: var(--mz-bg); }
.mz-display { position: relative; }
.mz-display-last { border: 2px dashed var(--mz-last); }
/* A narrow herd region (a notebook beside its file browser): the earlier displays share one row,
   each giving up width (its claim says how many, the kind being the herd's heading's, on a second
   line; then its first cards show), the last one under them. */
.mz-slot-herd { container: mz-herd / inline-size; }
@container mz-herd (max-width: 440px) {
  .mz-herd { display: grid; grid-template-columns: repeat(var(--mz-earlier, 1), minmax(0, max-content)); }
  .mz-herd > .mz-display-last { grid-column: 1 / -1; justify-self: start; }
  .mz-herd > .mz-display:not(.mz-display-last) { min-width: 0; overflow: hidden; }
  .mz-display:not(.mz-display-last) .mz-display-head { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 3; overflow: hidden; }
  .mz-display:not(.mz-display-last) .mz-claim-kind { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
}
/* The display being laid takes no row of the herd's room: it stands at the heading's end, framed
   as not yet laid, a small back (or, to a seat that knows it, its card's colour) per card, each
   named for a screen reader. */
.mz-herd-box { position: relative; }
.mz-herd-box.mz-with-laying > h4 { padding-right: 200px; }
.mz-herd > .mz-display.mz-display-laying { position: absolute; top: 3px; right: 6px; max-width: calc(100% - 12px); flex-direction: row;
  align-items: center; gap: 4px; padding: 0 4px; border: 2px dotted var(--mz-muted); white-space: nowrap; }
.mz-display.mz-display-laying .mz-display-cards { padding: 0; gap: 2px; }
.mz-root .mz-display.mz-display-laying .mz-display-cards .mz-card { width: 10px; height: 14px; padding: 0; border-radius: 2px; box-shadow: none; }
.mz-display.mz-display-laying .mz-display-cards .mz-card > * { display: none; }
/* The last display's label and claim share a line: a long herd keeps its room for cards. */
.mz-display-last { display: grid; grid-template-columns: auto minmax(0, 1fr); align-items: center; gap: 3px 6px; }
.mz-display-last > .mz-display-cards { grid-column: 1 / -1; }
.mz-last-badge { border-radius: 4px; padding: 0 4px; font-weight: 700; background: var(--mz-last); color: var(--mz-bg); align-self: flex-start; }
.mz-challenged { outline: 3px solid var(--mz-challenge); outline-offset: 2px; }
.mz-challenged::after { content: "?"; position: absolute; right: -7px; top: -7px; width: 16px; height: 16px; border-radius: 50%;
  background: var(--mz-challenge); color: var(--mz-bg); font-weight: 900; font-size: 11px; line-height: 16px; text-align: center; }
/* The latest challenge on one line: the label, the card turned, who turned whose. */
.mz-last-challenge { display: grid; grid-template-columns: auto auto minmax(0, 1fr); align-items: center; gap: 8px; margin: 2px 0 6px; }
.mz-display-cards { display: flex; gap: 3px; padding: 3px; }
/* The earlier displays of the herd lie small, as pushed aside on a table (each card keeps its
   name for a screen reader); the last one, the display a player may challenge, full size. */
.mz-display:not(.mz-display-last) { padding: 3px; gap: 2px; }
.mz-display:not(.mz-display-last) .mz-display-cards { padding: 2px; }
.mz-display:not(.mz-display-last) .mz-display-cards .mz-card { width: 34px; height: 44px; padding: 0 1px 2px; justify-content: flex-end; }
.mz-display:not(.mz-display-last) .mz-display-cards .mz-icon { width: 20px; height: 20px; }
.mz-display:not(.mz-display-last) .mz-display-cards .mz-card-name { display: none; }
.mz-display:not(.mz-display-last) .mz-display-cards .mz-back-mark { font-size: 12px; }
.mz-display-head { font-weight: 600; }
.mz-claim { color: var(--mz-muted); }
.mz-display-cards button.mz-card:not(:disabled) { outline: 3px dotted var(--mz-choice); outline-offset: 2px; }
.mz-display-cards button.mz-card:not(:disabled):hover, .mz-display-cards button.mz-card:not(:disabled):focus-visible { transform: translateY(-4px); outline: 4px double var(--mz-choice); }
.mz-seats { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 4px; }
.mz-seat { border: 2px solid var(--mz-border); border-radius: 8px; padding: 2px 5px; min-width: 0; overflow: hidden; background: var(--mz-bg);
  display: flex; flex-direction: column; gap: 3px; position: relative; }
.mz-seat.mz-to-move { border-color: var(--mz-turn); box-shadow: 0 0 0 2px var(--mz-turn); }
.mz-seat-name { display: flex; gap: 4px; align-items: center; font-weight: 700; flex-wrap: wrap; }
/* A fact about a seat ("you", "bot", "herd starter") in plain ink; the seat to move in the
   accent, with an arrow. Text on the accent takes the page's background: dark on a dark
   theme's light accent. A badge keeps its words on one line: on a narrow seat it takes a line
   of its own instead. */
.mz-badge { font-size: 11px; border-radius: 4px; padding: 0 4px; border: 1px solid var(--mz-muted); color: var(--mz-fg); font-weight: 600; white-space: nowrap; }
.mz-badge.mz-badge-turn { background: var(--mz-turn); border-color: var(--mz-turn); color: var(--mz-bg); font-weight: 700; }
.mz-badge.mz-badge-turn::before { content: "\\25B6\\FE0E  "; }
.mz-badge.mz-badge-win { color: #fff; border-color: #2f855a; }
.mz-badge-win { background: #2f855a; }
.mz-facts { color: var(--mz-muted); }
.mz-facts b { color: var(--mz-fg); }
.mz-backs { display: inline-flex; flex-wrap: nowrap; overflow: hidden; vertical-align: middle; }
.mz-root .mz-backs .mz-card { width: 12px; height: 20px; padding: 0; margin-right: -6px; box-shadow: none; border-width: 1px; }
.mz-backs .mz-back-mark { display: none; }
.mz-chip { position: absolute; right: 6px; bottom: 4px; border-radius: 9px; padding: 0 6px; font-weight: 700; background: #8a4b00; color: #fff; }
.mz-hands { display: flex; flex-direction: column; gap: 4px; }
.mz-teaching { border-left: 4px solid var(--mz-warn); }
.mz-hand-owner { font-weight: 600; }
/* The all-seeing view: every hand in sight, a row each, each a fan of small cards (number,
   colour and icon; in words for a screen reader and under the pointer). */
.mz-root.mz-every-hand .mz-slot-hands { flex-basis: calc(var(--mz-hand-rows, 4) * 38px + 40px); }
.mz-hands.mz-teaching { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 2px 6px; align-items: center; }
.mz-hands.mz-teaching > h4 { grid-column: 1 / -1; margin: 0; }
.mz-hands.mz-teaching .mz-hand-owner { white-space: nowrap; max-width: 7em; overflow: hidden; text-overflow: ellipsis; }
.mz-teaching .mz-hand { padding: 2px 2px 0; gap: 2px; }
.mz-root .mz-teaching .mz-hand .mz-card { width: 26px; height: 34px; padding: 0 0 2px; justify-content: flex-end; }
.mz-teaching .mz-hand .mz-card .mz-icon { width: 18px; height: 18px; }
.mz-teaching .mz-hand .mz-card .mz-card-name { display: none; }
.mz-teaching .mz-hand .mz-number { top: 5px; left: 2px; }
/* A chosen small card keeps its number and icon in sight: a smaller lift, the tick in a corner. */
.mz-teaching .mz-hand button.mz-card[aria-pressed="true"] { transform: translateY(-3px); outline-width: 3px; outline-offset: 1px; }
.mz-teaching .mz-hand button.mz-card[aria-pressed="true"]::after { left: auto; right: -4px; top: -5px; bottom: auto;
  width: 13px; height: 13px; line-height: 13px; font-size: 11px; z-index: 1; }
/* A hand fans as a real one does: when its cards are wider than the region, each card but the
   last is covered by the next, down to a 12 px edge (its number and colour; 7 px of the
   all-seeing view's smaller cards); the last shows whole. A covered card comes forward under
   the pointer. How far each card slides under the one before (--mz-overlap) and whether the
   covered cards show their names (mz-covered) are set from the row's width: fanHand. */
.mz-hand { display: flex; gap: 4px; flex-wrap: nowrap; overflow-x: auto; align-items: flex-end; padding: 8px 4px 2px; }
.mz-hand > .mz-card + .mz-card { margin-left: var(--mz-overlap, 0px); }
.mz-hand.mz-covered > .mz-card:not(:last-child):not(:hover):not(:focus-visible) { align-items: flex-start; padding-left: 2px; }
.mz-hand.mz-covered > .mz-card:not(:last-child):not(:hover):not(:focus-visible) .mz-card-name { visibility: hidden; }
.mz-hand > .mz-card:hover, .mz-hand > .mz-card:focus-visible { z-index: 1; }
.mz-hand button.mz-card[aria-pressed="true"] { transform: translateY(-8px); outline: 4px double var(--mz-choice); outline-offset: 2px; }
.mz-hand button.mz-card[aria-pressed="true"]::after { content: "\\2713"; position: absolute; left: 2px; bottom: 2px; width: 16px; height: 16px;
  border-radius: 50%; background: var(--mz-choice); color: var(--mz-bg); font-weight: 800; line-height: 16px; text-align: center; }
.mz-controls { display: flex; gap: 6px; flex-wrap: wrap; align-items: center; }
.mz-controls button { border: 1px solid var(--mz-border); background: var(--mz-bg); color: var(--mz-fg); border-radius: 5px; padding: 3px 9px; }
.mz-controls button[aria-pressed="true"] { background: var(--mz-choice); color: var(--mz-bg); border-color: var(--mz-choice); }
.mz-controls button[aria-pressed="true"]::before { content: "\\2713  "; }
.mz-controls .mz-species .mz-icon { width: 16px; height: 16px; vertical-align: -3px; margin-right: 3px; }
.mz-lay:not(:disabled) { font-weight: 700; background: var(--mz-choice) !important; color: var(--mz-bg) !important; border-color: var(--mz-choice) !important; }
.mz-composed { color: var(--mz-muted); }
.mz-flip { animation: mz-flip 0.5s ease-out; }
@keyframes mz-flip { from { transform: rotateY(90deg); } to { transform: none; } }
.mz-arrive { animation: mz-arrive 0.6s ease-out; }
@keyframes mz-arrive { from { transform: translateY(-24px) scale(0.85); opacity: 0.3; } to { transform: none; opacity: 1; } }
.mz-slide { animation: mz-slide 0.6s ease-out; }
@keyframes mz-slide { from { transform: translate(40px, -60px); opacity: 0.2; } to { transform: none; opacity: 1; } }
@media (prefers-reduced-motion: reduce) { .mz-flip, .mz-arrive, .mz-slide { animation: none; } }
/* A narrow table (a notebook in a side panel, a split pane): the regions stand in one column, each
   as wide as the table, in the order a player reads them (the herd, the hand and the lay being
   made, then the bases and the players). The column is taller than the table's box, which
   scrolls it; the herd takes what the composer leaves, so the column keeps one height. */
@container tw-main (max-width: 599px) {
  /* The composer's row keeps its room while there is no composer, as in the wide table: the
     hand does not move up when a seat's turn comes. */
  .mz-root { grid-template-columns: minmax(0, 1fr); height: 1100px;
    grid-template-rows: 34px minmax(0, 1fr) 144px minmax(115px, auto) 250px 230px; }
  /* The status line may take two lines: who lays, expands or challenges, and what must be. */
  .mz-slot-status { white-space: normal; line-height: 16px; }
  .mz-status { row-gap: 0; }
  .mz-left, .mz-right { display: contents; }
  .mz-slot-herd { grid-row: 2; }
  .mz-slot-hands { grid-row: 3; }
  .mz-slot-composer { grid-row: 4; }
  .mz-slot-middle { grid-row: 5; }
  .mz-slot-seats { grid-row: 6; }
}
`;

// ----------------------------------------------------------------------------------------
// The engine's notation (docs/rules/mammuz.md): "lay hare: hare hare gopher" (cards in the
// engine's card order), "challenge 2" (a 1-based card of the previous display), "give 1".

/** A notation → {type: "lay"|"challenge"|"give"|"other", ...}. */
export function parseAction(notation) {
  const text = String(notation).trim();
  let m = /^lay ([a-z]+): ([a-z ]+)$/.exec(text);
  if (m) return { type: "lay", notation, species: m[1], cards: m[2].split(" ") };
  if ((m = /^claim ([a-z]+)$/.exec(text))) return { type: "claim", notation, species: m[1] };
  if ((m = /^add ([a-z]+)$/.exec(text))) return { type: "add", notation, card: m[1] };
  if (text === "done") return { type: "done", notation };
  if ((m = /^challenge (\d+)$/.exec(text))) return { type: "challenge", notation, position: Number(m[1]) };
  if ((m = /^give (\d+)$/.exec(text))) return { type: "give", notation, seat: Number(m[1]) };
  return { type: "other", notation };
}

/** The notation of laying `cards` claimed as `species`, as the engine writes it. */
export function layNotation(species, cards) {
  return `lay ${species}: ${sortCards(cards).join(" ")}`;
}

const seatName = (view, ctx, seat) => {
  if (seat === null || seat === undefined) return "—";
  const names = ctx && ctx.seatNames && ctx.seatNames.length ? ctx.seatNames : view.seats || [];
  return names[seat] || `Seat ${seat}`;
};

function legalOf(ctx) {
  return (ctx && ctx.interactive && Array.isArray(ctx.legal) ? ctx.legal : []).filter((a) => typeof a === "string");
}

/** The cards in a `{card: n}` hand as a list in card order. */
function handCards(hand) {
  const out = [];
  for (const card of sortCards(Object.keys(hand || {}))) for (let i = 0; i < (hand[card] || 0); i++) out.push(card);
  return out;
}

// ----------------------------------------------------------------------------------------
// Sections. Each is a pure function of the view (and the composer, for the interactive parts).

export function drawStatus(doc, view, ctx, settled = true) {
  const box = el(doc, "div", { class: "mz-status" });
  const who = seatName(view, ctx, view.to_move);
  // The seat whose view this is reads its own decision as "you"; every other view, its name.
  const mine = (s) => !!ctx && Number.isInteger(ctx.seat) && ctx.seat === s;
  const you = mine(view.to_move);
  if (!settled && view.phase !== "over") {
    // A sub-step inside an action: whose turn it is is known only at the action's end.
    box.append(el(doc, "span", {}, "Settling the action, one sub-step at a time (see the caption below)."));
  } else if (view.phase === "over") {
    const winners = (view.winners || []).map((s) => seatName(view, ctx, s)).join(" and ");
    box.append(el(doc, "span", { class: "mz-result" }, winners ? `Game over — ${winners} wins` : "Game over"));
  } else if (view.phase === "start") {
    box.append(you ? el(doc, "span", {}, "You start a new herd: name a species and lay 1–4 cards face down.")
      : el(doc, "span", {}, el(doc, "b", {}, who), " starts a new herd: names a species and lays 1–4 cards face down."));
  } else if (view.phase === "respond" && (view.displays || []).length) {
    const last = view.displays[view.displays.length - 1];
    const shown = seatName(view, ctx, last.seat);
    // One sentence either way: the status line has room for one (two in a narrow table).
    box.append((view.hand_sizes || [])[last.seat] === 0
      ? el(doc, "span", { class: "mz-must" }, ...(you ? ["You"] : [el(doc, "b", {}, who)]), ` must challenge ${shown}, who laid the last cards of the hand.`)
      : you ? el(doc, "span", {}, `You expand the ${herdOf(view.claim)} or challenge ${shown}.`)
        : el(doc, "span", {}, el(doc, "b", {}, who), ` expands the ${herdOf(view.claim)} or challenges ${shown}.`));
  } else if (view.phase === "give") {
    box.append(el(doc, "span", {}, ...(you ? ["Triceratops: you pick who takes the herd."] : ["Triceratops: ", el(doc, "b", {}, who), " picks who takes the herd."])));
  } else if (view.phase === "lay" && view.laying) {
    box.append(el(doc, "span", {}, ...(mine(view.laying.seat) ? ["You lay"] : [el(doc, "b", {}, seatName(view, ctx, view.laying.seat)), " lays"]),
      ` cards face down as a ${herdOf(view.laying.species)}: ${view.laying.count} so far.`));
  }
  return box;
}

/** The bases (cards face up per species, extinct ones marked), dinosaurs out, the pile. */
export function drawMiddle(doc, view, anim) {
  const bases = el(doc, "div", { class: "mz-bases" });
  for (const species of view.species || []) {
    const n = (view.bases || {})[species] || 0;
    const size = (view.species_size || {})[species] ?? (ANIMALS[species] || {}).number;
    const extinct = (view.extinct || []).includes(species);
    const base = el(doc, "div", {
      class: ["mz-base", extinct ? "mz-extinct" : null, anim.bases.has(species) ? "mz-arrive" : null].filter(Boolean).join(" "),
      dataset: { species, count: String(n), extinct: String(extinct) },
      title: `${cardLabel(species)}: ${n} of ${size} cards face up on its base${extinct ? " — extinct" : ""}`,
    });
    base.append(faceCard(species, { small: true }, doc), el(doc, "span", { class: "mz-base-count" }, `${n}/${size}`));
    if (extinct) base.append(el(doc, "span", { class: "mz-extinct-mark" }, "extinct"));
    bases.append(base);
  }
  const out = el(doc, "div", { class: ["mz-out", anim.dinosaursOut ? "mz-arrive" : null].filter(Boolean).join(" "), "aria-label": "dinosaurs out of the game" });
  for (const d of view.dinosaurs_out || []) out.append(faceCard(d, { small: true }, doc));
  if (!(view.dinosaurs_out || []).length) out.append(el(doc, "span", { class: "mz-facts" }, "none"));
  const pileN = view.pile || 0;
  const pile = el(doc, "div", { class: ["mz-pile", anim.pile ? "mz-arrive" : null].filter(Boolean).join(" "), dataset: { count: String(pileN) } });
  if (pileN) pile.append(cardBack({ small: true, ariaLabel: `the Plesiosaur pile: ${pileN} cards` }, doc));
  pile.append(el(doc, "span", {}, el(doc, "b", {}, String(pileN)), ` card${pileN === 1 ? "" : "s"}`));
  if (Array.isArray(view.pile_cards) && view.pile_cards.length) {
    pile.append(el(doc, "span", { class: "mz-facts mz-teaching-note" }, `(all-seeing: ${sortCards(view.pile_cards).map((c) => cardLabel(c).toLowerCase()).join(", ")})`));
  }
  const section = el(doc, "div", { class: "mz-section mz-middle" }, el(doc, "h4", {}, "Bases"), bases);
  section.append(
    el(doc, "div", { class: "mz-row" },
      el(doc, "div", {}, el(doc, "h4", {}, "Dinosaurs out of the game"), out),
      el(doc, "div", {}, el(doc, "h4", {}, "Plesiosaur pile"), pile)),
  );
  if (Array.isArray(view.dinosaurs_in_play)) {
    section.append(el(doc, "div", { class: "mz-facts mz-teaching-note" },
      `All-seeing: the dinosaurs dealt are ${view.dinosaurs_in_play.map((d) => cardLabel(d)).join(", ") || "none"}.`));
  }
  return section;
}

/** The round's herd: every display in front of its seat; the last one's cards can be challenged. */
/** One display of the herd: whose, its claim, its cards (the last one marked as such). */
function displayItem(doc, view, ctx, composer, anim, marks, d, j, isLast, groupSig) {
  const J = JSON.stringify;
  const mine = ctx && ctx.seat !== null && ctx.seat !== undefined && d.seat === ctx.seat;
  const who = seatName(view, ctx, d.seat);
  const cls = ["mz-display", isLast ? "mz-display-last" : null].filter(Boolean).join(" ");
  const seat = String(d.seat);
  const index = String(j);
  // "claims 4 gophers": the kind apart, which an earlier display of a narrow herd leaves to the
  // herd's heading.
  const claimed = cardLabel(view.claim, d.size);
  const space = claimed.indexOf(" ");
  const cardsCls = ["mz-display-cards", isLast && anim.laid ? "mz-arrive" : null].filter(Boolean).join(" ");
  return {
    key: j,
    build: () => el(doc, "div", { class: cls, dataset: { seat, index } }),
    // Gone through only when what it shows changed, and then card by card: a card turned, the
    // challenges offered or the marks of the last lay build those cards, not the display.
    update: (group) => {
      if (group._mzSig === groupSig) return;
      group._mzSig = groupSig;
      if (group.className !== cls) group.className = cls;
      if (group.dataset.seat !== seat) group.dataset.seat = seat;
      if (group.dataset.index !== index) group.dataset.index = index;
      const cards = [];
      for (let i = 1; i <= d.size; i++) {
        const up = (d.turned || {})[String(i)];
        const known = Array.isArray(d.cards) ? d.cards[i - 1] : undefined;
        const challenge = isLast && composer && composer.challenges.has(i) ? `challenge ${i}` : null;
        const flip = !!(up && anim.flip && isLast && anim.flip === i);
        const challenged = !!(isLast && marks.challenged === i);
        // A card to challenge is a button: another key, so another node (not a div patched).
        cards.push({
          key: `${i}${challenge ? "b" : ""}`,
          sig: J([up ?? null, known ?? null, mine, challenge, flip, challenged, who]),
          build: () => displayCard(doc, d, i, who, up, known, mine, challenge, flip, challenged),
        });
      }
      reconcile(group, [
        isLast ? { key: "badge", build: () => el(doc, "span", { class: "mz-last-badge" }), update: (node) => setText(node, marks.laid ? "just laid" : "last lay") } : null,
        {
          key: "head",
          sig: J([who, claimed]),
          build: () => el(doc, "div", { class: "mz-display-head" }, who, " ",
            el(doc, "span", { class: "mz-claim" }, `claims ${claimed.slice(0, space)}`, el(doc, "span", { class: "mz-claim-kind" }, claimed.slice(space)))),
        },
        {
          key: "cards",
          build: () => el(doc, "div", { class: cardsCls }),
          update: (node) => {
            if (node.className !== cardsCls) node.className = cardsCls;
            reconcile(node, cards);
          },
        },
      ]);
    },
  };
}

/** Card `i` of a display: turned up, face down as this view knows it, or a back. */
function displayCard(doc, d, i, who, up, known, mine, challenge, flip, challenged) {
  const opts = challenge
    ? { button: true, title: `challenge: turn card ${i} of ${who}'s display`, ariaLabel: `Challenge card ${i} of ${who}'s display` }
    : {};
  let node;
  if (up) {
    node = faceCard(up, { ...opts, mark: ["mz-turned", flip ? "mz-flip" : null].filter(Boolean).join(" "), ariaLabel: `${cardLabel(up)}, turned up` }, doc);
  } else if (known !== undefined) {
    // Face down on the table; this view knows it (its own display, or the all-seeing view).
    const whose = mine ? "your card, face down" : "face down (all-seeing view)";
    node = faceCard(known, { ariaLabel: `${cardLabel(known)}, ${whose}`, title: `${cardLabel(known)} — ${whose}`, ...opts, known: true }, doc);
  } else {
    node = cardBack(opts, doc);
  }
  node.dataset.position = String(i);
  if (challenged) {
    node.classList.add("mz-challenged");
    node.setAttribute("aria-label", `${node.getAttribute("aria-label")}, just challenged`);
  }
  if (challenge) {
    node.dataset.action = "play";
    node.dataset.notation = challenge;
  }
  return node;
}

/** The display a seat is laying, card by card, before it joins the herd: its backs (its cards
 * face up to the seat laying it and in the all-seeing view), after the displays laid before
 * (the herd's heading and the status line name the species it is laid as). */
function layingGroup(doc, view, ctx, lay) {
  const mine = ctx && ctx.seat !== null && ctx.seat !== undefined && lay.seat === ctx.seat;
  const who = seatName(view, ctx, lay.seat);
  const group = el(doc, "div", { class: "mz-display mz-display-laying", dataset: { seat: String(lay.seat) } },
    el(doc, "div", { class: "mz-display-head" }, who, " ",
      el(doc, "span", { class: "mz-claim" }, `is laying ${lay.count}`)));
  const cards = el(doc, "div", { class: "mz-display-cards" });
  for (let i = 0; i < lay.count; i++) {
    const known = Array.isArray(lay.cards) ? lay.cards[i] : undefined;
    const whose = mine ? "your card, face down" : "face down (all-seeing view)";
    cards.append(known !== undefined
      ? faceCard(known, { ariaLabel: `${cardLabel(known)}, ${whose}`, title: `${cardLabel(known)} — ${whose}`, known: true }, doc)
      : cardBack({}, doc));
  }
  group.append(cards);
  return group;
}

/**
 * The herd as items for dom.reconcile: each display is redrawn when its own inputs change, so
 * a lay builds the new display and re-marks the one before it, not the whole herd.
 */
export function herdItems(doc, view, ctx, composer, anim, marks = {}) {
  const J = JSON.stringify;
  const displays = view.displays || [];
  // A round's starter names the species before laying a card: the herd is being started.
  const title = view.claim ? `The ${herdOf(view.claim)}: ${displays.reduce((n, d) => n + d.size, 0)} claimed`
    : view.laying ? `A new ${herdOf(view.laying.species)}` : "No herd: a new round starts";
  const claim = view.claim || "";
  const earlier = String(Math.max(1, displays.length - 1));
  const challenges = composer ? [...composer.challenges].sort((a, b) => a - b) : [];
  const groups = displays.map((d, j) => {
    const isLast = j === displays.length - 1;
    const mine = ctx && ctx.seat !== null && ctx.seat !== undefined && d.seat === ctx.seat;
    const sig = J([d, isLast, mine, view.claim, seatName(view, ctx, d.seat),
      isLast ? [challenges, anim.flip || null, !!anim.laid, !!marks.laid, marks.challenged ?? null] : null]);
    return displayItem(doc, view, ctx, composer, anim, marks, d, j, isLast, sig);
  });
  const lay = view.laying;
  if (lay) {
    groups.push({ key: "laying", sig: J([lay, seatName(view, ctx, lay.seat), ctx && ctx.seat]),
      build: () => layingGroup(doc, view, ctx, lay) });
  }
  const last = (view.turned || []).at(-1);
  const line = last && !(marks.challenged && displays.length)
    ? {
      // The latest challenge stays in sight after its herd is gone: who turned what.
      key: "challenge",
      sig: J([last, seatName(view, ctx, last.challenger), seatName(view, ctx, last.displayer)]),
      build: () => el(doc, "div", { class: "mz-last-challenge", dataset: { card: last.card } },
        el(doc, "span", { class: "mz-last-badge" }, "last challenge"),
        faceCard(last.card, { small: true, mark: "mz-challenged", ariaLabel: `${cardLabel(last.card)}, the card last challenged` }, doc),
        el(doc, "span", { class: "mz-last-challenge-text" },
          `${seatName(view, ctx, last.challenger)} turned a card of ${seatName(view, ctx, last.displayer)}: ${cardLabel(last.card)}.`)),
    }
    : null;
  return [{
    ...shell("box", () => el(doc, "div", { class: "mz-section mz-herd-box", dataset: { claim } }), [
      { key: "head", build: () => el(doc, "h4"), update: (node) => setText(node, title) },
      line,
      groups.length
        ? {
          ...shell("row", () => el(doc, "div", { class: "mz-herd", style: { "--mz-earlier": earlier } }), groups),
          patch: (node) => {
            if (node.style.getPropertyValue("--mz-earlier") !== earlier) node.style.setProperty("--mz-earlier", earlier);
          },
        }
        : null,
      composer && composer.challenges.size ? fixed("facts", () => el(doc, "div", { class: "mz-facts" }, "Click a card of the framed display to challenge it.")) : null,
    ]),
    patch: (node) => {
      if (node.dataset.claim !== claim) node.dataset.claim = claim;
      // Its heading leaves room for the display being laid (set here, not by a :has() rule).
      if (node.classList.contains("mz-with-laying") !== !!lay) node.classList.toggle("mz-with-laying", !!lay);
    },
  }];
}

export function drawHerd(doc, view, ctx, composer, anim, marks = {}) {
  return drawn(doc, herdItems(doc, view, ctx, composer, anim, marks))[0];
}

/** The seats as items for dom.reconcile: each seat is redrawn when its own inputs change. */
export function seatsItems(doc, view, ctx, anim, settled = true) {
  const J = JSON.stringify;
  const bots = (ctx && ctx.botSeats) || [];
  const seats = [];
  for (let s = 0; s < (view.players || (view.hand_sizes || []).length); s++) {
    const n = (view.hand_sizes || [])[s] || 0;
    const over = view.phase === "over";
    const moving = settled && !over && view.to_move === s;
    const cls = ["mz-seat", moving ? "mz-to-move" : null, anim.seats.has(s) ? "mz-arrive" : null].filter(Boolean).join(" ");
    const chip = anim.chips.get(s);
    // A seat's name line, its hand (a count and a row of backs, set in place) and its chip.
    seats.push({
      key: s,
      build: () => el(doc, "div", { class: cls, dataset: { seat: String(s), hand: String(n) } }),
      update: (node) => reconcile(node, [
        {
          key: "name",
          sig: J([seatName(view, ctx, s), !!ctx && ctx.seat === s, bots.includes(s), moving,
            !over && (view.displays || []).length && view.starter === s, over && (view.winners || []).includes(s)]),
          build: () => seatNameLine(doc, view, ctx, s, over, moving, bots),
        },
        { key: "hand", build: () => handSize(doc), update: (facts) => setHandSize(doc, facts, n, anim.arrived.get(s) || 0) },
        chip ? { key: "chip", sig: chip, build: () => el(doc, "span", { class: "mz-chip" }, chip) } : null,
      ]),
      patch: (node) => {
        if (node.className !== cls) node.className = cls;
        if (node.dataset.hand !== String(n)) node.dataset.hand = String(n);
      },
    });
  }
  return [shell("seats", () => el(doc, "div", { class: "mz-section" }), [
    fixed("head", () => el(doc, "h4", {}, "Players")),
    shell("box", () => el(doc, "div", { class: "mz-seats" }), seats),
  ])];
}

export function drawSeats(doc, view, ctx, anim, settled = true) {
  return drawn(doc, seatsItems(doc, view, ctx, anim, settled))[0];
}

function seatNameLine(doc, view, ctx, s, over, moving, bots) {
  const name = el(doc, "div", { class: "mz-seat-name" }, seatName(view, ctx, s));
  if (ctx && ctx.seat === s) name.append(el(doc, "span", { class: "mz-badge" }, "you"));
  if (bots.includes(s)) name.append(el(doc, "span", { class: "mz-badge" }, "bot"));
  if (moving) name.append(el(doc, "span", { class: "mz-badge mz-badge-turn" }, "to move"));
  if (!over && (view.displays || []).length && view.starter === s) name.append(el(doc, "span", { class: "mz-badge" }, "herd starter"));
  if (over && (view.winners || []).includes(s)) name.append(el(doc, "span", { class: "mz-badge mz-badge-win" }, "winner"));
  return name;
}

function handSize(doc) {
  return el(doc, "div", { class: "mz-facts mz-hand-size" }, "hand ", el(doc, "b"), " ", el(doc, "span", { class: "mz-backs", "aria-hidden": "true" }));
}

/** A seat's hand set in place: its count, and a back per card (up to 14) added or taken away. */
function setHandSize(doc, facts, n, arrivedNow) {
  const title = `${n} cards in hand`;
  if (facts.getAttribute("title") !== title) facts.setAttribute("title", title);
  setText(facts.children[0], String(n));
  const backs = facts.children[1];
  const shown = Math.min(n, 14);
  // Cards that just arrived (a taken herd, a Stegosaurus deal) are the last backs, sliding in.
  const arrived = Math.min(arrivedNow, shown);
  while (backs.childElementCount > shown) backs.lastChild.remove();
  while (backs.childElementCount < shown) backs.append(cardBack({}, doc));
  let i = 0;
  for (const back of backs.children) back.classList.toggle("mz-slide", i++ >= shown - arrived);
}

/** A card of a hand (a button to pick while a lay is composed). The row carries how many cards
 * share it (--n): the fan's overlap and covers follow from it and the row's width (fanHand). */
function handCard(doc, card, index, composer) {
  const opts = composer
    ? { button: true, pressed: composer.picked.has(index), title: `${cardLabel(card)}: select to lay` }
    : {};
  const node = faceCard(card, opts, doc);
  node.dataset.index = String(index);
  if (composer) {
    node.dataset.action = "pick";
    if (!composer.picked.has(index) && composer.picked.size >= 4) node.disabled = true;
  }
  return node;
}

/** The viewing seat's own hand; in the all-seeing view every hand, labelled as such. */
/**
 * The viewing seat's hand (buttons while a lay is composed); in the all-seeing view every
 * hand. Each seat's row is its own item: a frame rebuilds the rows whose cards changed.
 */
export function handsItems(doc, view, ctx, composer) {
  const seat = ctx ? ctx.seat : null;
  const J = JSON.stringify;
  const box = (teaching) => () => el(doc, "div", { class: `mz-section mz-hands${teaching ? " mz-teaching" : ""}` });
  // A row's cards are items keyed by what they are (and which of equal ones), so a lay or a
  // card taken leaves the other cards' nodes as they are; only their index is set again.
  const row = (hand, s, c) => {
    const cards = handCards(hand);
    const n = String(cards.length);
    const seen = new Map();
    const items = cards.map((card, index) => {
      const nth = (seen.get(card) || 0) + 1;
      seen.set(card, nth);
      const choice = c ? [c.picked.has(index), !c.picked.has(index) && c.picked.size >= 4] : null;
      return {
        // A card to pick is a button: another element than the card shown otherwise.
        key: `${card}:${nth}${c ? ":pick" : ""}`,
        sig: J([card, choice, choice ? index : null]),
        build: () => handCard(doc, card, index, c),
        patch: (node) => {
          if (node.dataset.index !== String(index)) node.dataset.index = String(index);
        },
      };
    });
    if (!items.length) items.push(fixed("none", () => el(doc, "span", { class: "mz-facts" }, "(no cards)")));
    return {
      ...shell(`hand${s}`, () => {
        const node = el(doc, "div", { class: "mz-hand", tabindex: 0, role: "group", "aria-label": "cards", style: { "--n": n } });
        node.dataset.seat = String(s);
        return node;
      }, items),
      patch: (node) => {
        if (node.style.getPropertyValue("--n") !== n) node.style.setProperty("--n", n);
      },
    };
  };
  if (seat === null || seat === undefined) {
    if (!Array.isArray(view.hands)) return [];
    const items = [fixed("head", () => el(doc, "h4", {}, "Every hand (all-seeing view: no player sees this)"))];
    view.hands.forEach((hand, s) => {
      // The name and how many cards; what they are, in words, for a reader and a screen reader.
      const n = handCards(hand).length;
      const owner = `${seatName(view, ctx, s)}: ${countsText(hand) || "no cards"}`;
      items.push({
        key: `owner${s}`,
        sig: owner,
        build: () => el(doc, "div", { class: "mz-hand-owner", dataset: { seat: String(s) }, title: owner },
          `${seatName(view, ctx, s)} `, el(doc, "span", { class: "mz-facts" }, String(n)),
          el(doc, "span", { class: "tw-sr-only" }, `: ${countsText(hand) || "no cards"}`)),
      });
      items.push(row(hand, s, s === view.to_move ? composer : null));
    });
    return [shell("teaching", box(true), items)];
  }
  if (!view.hand) return [];
  const title = `Your hand (${seatName(view, ctx, seat)})`;
  return [shell(`seat${seat}`, box(false), [{ key: "head", sig: title, build: () => el(doc, "h4", {}, title) }, row(view.hand, seat, composer)])];
}

export function drawHands(doc, view, ctx, composer) {
  return drawn(doc, handsItems(doc, view, ctx, composer))[0] || null;
}

// ----------------------------------------------------------------------------------------
// The composer: the legal actions parsed once; the selection checked against them.

/** `legal` notations → what the table may offer; `sel` is {species, picked: Set of hand indexes}. */
// The engine offers a lay one decision at a time (`claim <species>`, `add <card>`, `done`);
// the composer turns a person's selection into one whole lay, `lay <species>: <cards>`, which
// the engine accepts at the start of a turn: a lay stays one step of the timeline.
export function makeComposer(legal, sel, hand, claim) {
  const laySpecies = [];
  const addable = new Set();
  const challenges = new Set();
  const gives = [];
  const steps = [];
  for (const notation of legal) {
    const a = parseAction(notation);
    if (a.type === "claim") laySpecies.push(a.species);
    else if (a.type === "add") addable.add(a.card);
    else if (a.type === "challenge") challenges.add(a.position);
    else if (a.type === "give") gives.push(a);
    if (a.type === "add" || a.type === "done") steps.push(a);
  }
  // expanding: the first card added starts the lay, claimed as the herd's species
  if (!laySpecies.length && addable.size && claim) laySpecies.push(claim);
  const cards = handCards(hand);
  const species = laySpecies.length === 1 ? laySpecies[0] : sel.species;
  const picked = [...sel.picked].filter((i) => i < cards.length).map((i) => cards[i]);
  const ok = species && laySpecies.includes(species) && picked.length >= 1 && picked.length <= 4;
  return {
    sel,
    picked: sel.picked,
    species,
    laySpecies,
    canLay: laySpecies.length > 0,
    challenges,
    gives,
    /** A lay begun one decision at a time (from Python): its remaining `add`/`done` choices. */
    steps: laySpecies.length ? [] : steps,
    /** The notation of the composed lay, or null when it is not complete. */
    chosen: () => (ok ? layNotation(species, picked) : null),
    pickedCards: picked,
  };
}

function drawComposer(doc, view, ctx, composer) {
  if (!composer) return null;
  const box = el(doc, "div", { class: "mz-section mz-composer" });
  if (composer.gives.length) {
    box.append(el(doc, "h4", {}, "Triceratops: who takes the herd?"));
    const row = el(doc, "div", { class: "mz-controls" });
    for (const g of composer.gives) {
      const self = g.seat === view.to_move;
      row.append(el(doc, "button", { type: "button", dataset: { action: "play", notation: g.notation }, title: g.notation },
        self ? `Take it myself (${seatName(view, ctx, g.seat)})` : `Give it to ${seatName(view, ctx, g.seat)} (${(view.hand_sizes || [])[g.seat]} cards)`));
    }
    box.append(row);
    return box;
  }
  if (composer.steps.length) {
    box.append(el(doc, "h4", {}, `Finish the lay of the ${herdOf(view.laying ? view.laying.species : view.claim)}`));
    const row = el(doc, "div", { class: "mz-controls" });
    for (const a of composer.steps) {
      row.append(el(doc, "button", { type: "button", dataset: { action: "play", notation: a.notation }, title: a.notation },
        a.type === "done" ? "Lay these cards" : `Add ${cardLabel(a.card).toLowerCase()}`));
    }
    box.append(row);
    return box;
  }
  if (!composer.canLay) {
    box.append(el(doc, "h4", {}, "Your move"), el(doc, "div", { class: "mz-facts" }, "You cannot expand: challenge a card of the framed display."));
    return box;
  }
  const starting = view.phase === "start";
  box.append(el(doc, "h4", {}, starting ? "Start a herd: name a species, select 1–4 cards" : `Expand the ${herdOf(view.claim)}: select 1–4 cards`));
  const controls = el(doc, "div", { class: "mz-controls" });
  if (starting) {
    for (const s of composer.laySpecies) {
      controls.append(el(doc, "button", { type: "button", class: "mz-species", dataset: { action: "species", species: s }, "aria-pressed": String(composer.species === s), title: `claim a ${herdOf(s)}` },
        cardIcon(s, doc), cardLabel(s)));
    }
  }
  const picked = composer.pickedCards;
  const claim = composer.species ? `claimed as ${cardLabel(composer.species, picked.length || 1).replace(/^\d+ /, `${picked.length} `)}` : "choose the species to claim";
  const truth = picked.length ? `${picked.length} card${picked.length === 1 ? "" : "s"} (${sortCards(picked).map((c) => cardLabel(c).toLowerCase()).join(", ")}), ${claim}` : "select cards in your hand";
  controls.append(el(doc, "span", { class: "mz-composed" }, truth));
  const notation = composer.chosen();
  controls.append(el(doc, "button", { type: "button", class: "mz-lay", dataset: { action: "lay" }, disabled: !notation, title: notation || "select 1–4 cards and a species" }, "Lay"));
  controls.append(el(doc, "button", { type: "button", dataset: { action: "clear" } }, "Clear"));
  box.append(controls);
  if (composer.challenges.size) box.append(el(doc, "div", { class: "mz-facts" }, "…or click a card of the framed display to challenge it."));
  return box;
}

// ----------------------------------------------------------------------------------------
// Animations: only when stepping forward by one frame (a sub-step, or into the next step), at a
// pace a move can be followed at (a scrub animates nothing).

/** What the frame animates, from its event kind and data; nothing unless `forward`. */
export function animationsOf(frame, forward) {
  const anim = { flip: 0, bases: new Set(), seats: new Set(), chips: new Map(), arrived: new Map(), pile: false, dinosaursOut: false, laid: false };
  if (!forward) return anim;
  const data = frame.data || {};
  const view = frame.view || {};
  switch (frame.kind) {
    case "lay":
      anim.laid = true;
      break;
    case "turn":
      anim.flip = data.position || 0;
      break;
    case "take":
      anim.arrived.set(data.seat, data.count || 0);
      anim.seats.add(data.seat);
      anim.chips.set(data.seat, `+${data.count}`);
      break;
    case "stegosaurus":
      (data.dealt || []).forEach((n, s) => {
        if (n) {
          anim.arrived.set(s, n);
          anim.seats.add(s);
          anim.chips.set(s, `+${n}`);
        }
      });
      break;
    case "plesiosaur":
      anim.pile = true;
      break;
    case "tyrannosaurus":
      for (const c of data.cards || []) if (ANIMALS[c]) anim.bases.add(c);
      anim.dinosaursOut = (data.cards || []).some((c) => DINOS[c]);
      break;
    case "extinction":
      anim.bases.add(data.species);
      if (data.seat !== null && data.seat !== undefined) anim.chips.set(data.seat, `${cardLabel(data.species)} → base`);
      break;
    case "triceratops":
    case "starter":
    case "end":
    default:
      if (frame.kind === "starter" && view.to_move !== undefined && view.to_move !== null) anim.seats.add(view.to_move);
  }
  return anim;
}

/** What the frame's own action marks: `{laid}` for a lay, `{challenged: position}` for a challenge. */
export function lastMarks(frame) {
  if (!frame) return {};
  if (frame.kind === "lay") return { laid: true };
  if (frame.kind === "turn" && frame.data && Number.isInteger(frame.data.position)) return { challenged: frame.data.position };
  return {};
}

export function isForward(prev, frame) {
  if (!prev || prev === frame) return false;
  if (prev.step === frame.step) return prev.sub === frame.sub - 1;
  return prev.step === frame.step - 1 && !!prev.last && frame.sub === 0;
}

// ----------------------------------------------------------------------------------------

const EMPTY_SEL = () => ({ species: null, picked: new Set() });

/**
 * Fan a hand row from its width (kept by a ResizeObserver: no layout is read in an update):
 * each card after the first slides under the one before by what the row lacks, shared evenly
 * (at most down to the covered card's edge), and the covered cards hide their names while a
 * row of n cards side by side would not fit (a container query per count would restyle every
 * card of a row whenever the row changed).
 */
export function fanHand(row) {
  const width = row._twWidth;
  if (width === undefined) return;
  const n = Number(row.style.getPropertyValue("--n")) || 1;
  const small = !!(row.parentElement && row.parentElement.classList.contains("mz-teaching"));
  const [card, gap, edge] = small ? [26, 2, 19] : [72, 4, 60];
  const overlap = n > 1 ? Math.min(0, Math.max(-edge, (width - n * card) / (n - 1) - gap)) : 0;
  const value = `${Math.round(overlap * 100) / 100}px`;
  if (row.style.getPropertyValue("--mz-overlap") !== value) row.style.setProperty("--mz-overlap", value);
  row.classList.toggle("mz-covered", n >= 2 && width <= n * 72 + (n - 1) * 4 - 1);
}

export function mount(boardEl, ctx) {
  const doc = boardEl.ownerDocument || globalThis.document;
  const root = el(doc, "div", { class: "mz-root" });
  // Fixed regions: one footprint for every frame; what can grow scrolls inside its region.
  // Regions that scroll are focusable, so a keyboard can scroll them too.
  const slot = (cls, label) => el(doc, "div", { class: `mz-slot ${cls}`, ...(label ? { tabindex: 0, role: "region", "aria-label": label } : {}) });
  const slots = { status: slot("mz-slot-status"), middle: slot("mz-slot-middle", "bases, dinosaurs out and the pile"),
    seats: slot("mz-slot-seats", "players"), herd: slot("mz-slot-herd", "the herd"), hands: slot("mz-slot-hands", "hands"),
    composer: slot("mz-slot-composer") };
  root.append(slots.status, el(doc, "div", { class: "mz-left" }, slots.middle, slots.seats),
    el(doc, "div", { class: "mz-right" }, slots.herd, slots.hands, slots.composer));
  boardEl.append(root);
  let current = { frame: null, prev: null, ctx };
  let sel = EMPTY_SEL();
  let selKey = null;
  let composer = null;
  let shown = { frame: null, anim: null };
  // What each region was drawn from (null: always redraw): unchanged regions keep their nodes.
  const drawnKeys = {};
  function fill(name, key, build) {
    if (key !== null && drawnKeys[name] === key) return;
    drawnKeys[name] = key;
    morphChildren(slots[name], [build()].flat().filter(Boolean));
  }
  // A region of items: only the items whose inputs changed are drawn again.
  function fillItems(name, key, items) {
    if (key !== null && drawnKeys[name] === key) return;
    drawnKeys[name] = key;
    reconcile(slots[name], items());
  }

  // The hand rows' widths, kept as the page lays them out (their fans follow).
  const fans = widthWatcher(fanHand);

  // Frames drawn at a pace a move can be followed at animate; a scrub (dom.SCRUB_MS) does not.
  const pace = paceWatch();

  function render(paced = false) {
    const { frame, prev } = current;
    const c = current.ctx || {};
    composer = null;
    if (!frame || !frame.view) {
      for (const name of Object.keys(slots)) fill(name, "", () => null);
      return;
    }
    const view = frame.view;
    const legal = legalOf(c);
    const key = `${frame.step}:${frame.sub}:${c.seat}:${legal.join("|")}`;
    if (key !== selKey) {
      // A new position or new legal actions: a half-made selection no longer applies.
      sel = EMPTY_SEL();
      selKey = key;
    }
    const hand = c.seat === null || c.seat === undefined ? (view.hands || [])[view.to_move] : view.hand;
    // The all-seeing view gives every hand a row of its own, and the herd the rest.
    const everyHand = (c.seat === null || c.seat === undefined) && Array.isArray(view.hands);
    root.classList.toggle("mz-every-hand", everyHand);
    if (everyHand) root.style.setProperty("--mz-hand-rows", String(view.hands.length));
    else root.removeAttribute("style"); // its only property: a seat's view after the all-seeing one
    if (legal.length && view.phase !== "over") composer = makeComposer(legal, sel, hand || {}, view.phase === "lay" ? null : view.claim);
    const animate = !c.settings || c.settings.animate !== false;
    // Redrawing the same frame (new legal actions, a selection) keeps its animation, so a
    // flip that has just started is not cut short by the kernel's next message.
    const anim = shown.frame === frame && shown.anim ? shown.anim : animationsOf(frame, animate && paced && isForward(prev, frame));
    const fresh = shown.frame !== frame;
    shown = { frame, anim };

    const settled = frame.last !== false;
    const names = c.seatNames || view.seats;
    const J = JSON.stringify;
    const animKey = fresh ? `${frame.step}:${frame.sub}` : "";
    fill("status", J([names, c.seat, view.phase, view.to_move, view.winners, view.claim, view.displays.length, settled,
      (view.hand_sizes || []).join(), (view.displays.at(-1) || {}).seat, view.laying && [view.laying.seat, view.laying.species, view.laying.count]]),
    () => drawStatus(doc, view, c, settled));
    fill("middle", J([view.species, view.bases, view.extinct, view.dinosaurs_out, view.pile, view.pile_cards,
      view.dinosaurs_in_play, anim.pile || anim.dinosaursOut || anim.bases.size ? animKey : "", [...anim.bases]]), () => drawMiddle(doc, view, anim));
    const marks = lastMarks(frame);
    fillItems("herd", composer ? null : J([names, c.seat, view.displays, view.claim, view.laying, view.turned, marks, anim.flip || anim.laid ? animKey : ""]),
      () => herdItems(doc, view, c, composer, anim, marks));
    fillItems("seats", J([names, c.seat, c.botSeats, view.hand_sizes, view.to_move, view.phase, view.starter, view.winners,
      view.displays.length, settled, anim.seats.size || anim.chips.size ? animKey : "", [...anim.chips]]), () => seatsItems(doc, view, c, anim, settled));
    const handsKey = composer ? null : J([names, c.seat, view.hand, view.hands, view.to_move]);
    if (handsKey === null || drawnKeys.hands !== handsKey) {
      drawnKeys.hands = handsKey;
      reconcile(slots.hands, handsItems(doc, view, c, composer && composer.canLay ? composer : null));
      for (const row of slots.hands.querySelectorAll(".mz-hand")) {
        fans.watch(row);
        fanHand(row);
      }
    }
    fill("composer", composer ? null : "", () => drawComposer(doc, view, c, composer));
    const noComposer = !slots.composer.firstChild;
    if (slots.hands.classList.contains("mz-no-composer") !== noComposer) slots.hands.classList.toggle("mz-no-composer", noComposer);
  }

  function onClick(event) {
    const target = event.target.closest ? event.target.closest("[data-action]") : null;
    if (!target || !root.contains(target) || target.disabled) return;
    const c = current.ctx || {};
    const action = target.dataset.action;
    if (action === "play") {
      // Only what the kernel offered is sent (the engine checks it again).
      const notation = target.dataset.notation;
      if (legalOf(c).includes(notation) && c.play) c.play(notation);
      return;
    }
    if (!composer) return;
    shown.anim = animationsOf(current.frame, false); // a click redraws without replaying
    if (action === "pick") {
      const index = Number(target.dataset.index);
      const picked = new Set(sel.picked);
      if (picked.has(index)) picked.delete(index);
      else if (picked.size < 4) picked.add(index);
      sel = { ...sel, picked };
    } else if (action === "species") {
      const s = target.dataset.species;
      sel = { ...sel, species: sel.species === s ? null : s };
    } else if (action === "clear") {
      sel = EMPTY_SEL();
    } else if (action === "lay") {
      // A whole lay is composed from the offered decisions; the engine checks it again.
      const notation = composer.chosen();
      if (notation && legalOf(c).length && c.play) c.play(notation);
      return;
    }
    render();
  }

  root.addEventListener("click", onClick);
  return {
    update(frame, prev, ctx2) {
      current = { frame, prev, ctx: ctx2 || current.ctx };
      render(pace());
    },
    destroy() {
      root.removeEventListener("click", onClick);
      fans.disconnect();
      root.remove();
    },
  };
}

export const renderer = { name: "mammuz", css, mount };
export default createGameWidget(renderer);

// Re-exported for tests and for other tables that show MammuZ cards.
export { CARDS };
