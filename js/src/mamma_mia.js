// The Mamma Mia! card table (classic and Plus): supply, oven with its public log, the table's
// ingredient columns, each seat's area, the viewing seat's hand, the turn composer and the
// evaluation's decisions. Every update redraws from `frame.view` alone, so stepping back and
// forth can never accumulate state; `prev` only chooses which card gets the reveal animation.
import { createGameWidget } from "./timeline.js";
import {
  COLOUR_CSS,
  ICON_CSS,
  KINDS,
  cardBack,
  colourClass,
  countsText,
  el,
  ingredientCard,
  ingredientIcon,
  kindLabel,
  mammaMiaCard,
  markIngredientCard,
  orderCard,
  orderName,
  orderSpine,
  orderText,
  pile,
  setPileCount,
} from "./mamma_mia_cards.js";
import { animateNode, builtNode, docOf, drawn, fixed, paceWatch, reconcile, setText, setTip, shell, showTips, shrinkToFit, widthWatcher } from "./dom.js";

export const css = `
.mm-root {
  /* The timeline's variables when inside it, else JupyterLab's, else light/dark fallbacks. */
  --mm-fg: var(--tw-fg, var(--jp-ui-font-color1, #1f1f1f));
  --mm-muted: var(--tw-fg2, var(--jp-ui-font-color2, #5f5f5f));
  --mm-bg: var(--tw-bg, var(--jp-layout-color1, #ffffff));
  --mm-panel: var(--tw-bg2, var(--jp-layout-color2, #f2f0eb));
  --mm-border: var(--tw-border, var(--jp-border-color1, #c8c3b8));
  --mm-accent: var(--tw-brand, var(--jp-brand-color1, #1e6fd0));
  --mm-warn: var(--jp-warn-color1, #c77700);
  /* Colour roles, each with a shape of its own besides (docs/architecture.md lists them): the
     seat to move in the accent (a solid ring and a "to move" badge); your choices and what
     you may click in a teal (a raised card, a double ring, a tick), apart from every seat's
     colour; what the last turn did in the ink (dashed outlines, "new" and "just played"
     labels); what the rules hold pending in the warning orange. The teal is mixed with the
     ink, so it keeps its contrast on a light and a dark page alike. */
  --mm-turn: var(--mm-accent);
  --mm-choice: color-mix(in srgb, #009688 65%, var(--mm-fg));
  --mm-last: var(--mm-fg);
  color: var(--mm-fg);
  background: var(--mm-bg);
  font-family: var(--jp-ui-font-family, system-ui, sans-serif);
  font-size: var(--jp-ui-font-size1, 13px);
  /* One footprint for every frame: fixed regions, each scrolling or compressing inside. */
  display: grid; grid-template-columns: minmax(230px, min(39%, 330px)) minmax(0, 1fr); grid-template-rows: 24px minmax(0, 1fr);
  gap: 6px; padding: 4px; height: var(--tw-table-height, 640px); overflow: hidden; box-sizing: border-box;
}
/* Each region's size is set here, never taken from its content, and each is the child of a
   block (a flex or grid item is never laid out on its own): a frame that redraws one region
   lays out that region alone. */
.mm-slot { min-height: 0; min-width: 0; overflow: auto; contain: strict; }
.mm-top { grid-column: 1 / -1; min-width: 0; }
.mm-slot-status { height: 24px; overflow: hidden; white-space: nowrap; }
.mm-left, .mm-right { min-height: 0; min-width: 0; }
.mm-slot-seats, .mm-slot-middle, .mm-slot-hand { margin-top: 6px; }
.mm-slot-oven { height: 272px; display: grid; grid-template-columns: 84px minmax(0, 1fr); gap: 6px; overflow: hidden; }
.mm-supply .mm-mm-in-supply { margin-top: 4px; }
.mm-slot-oven > .mm-section { min-height: 0; overflow: hidden; }
.mm-oven-box { display: flex; flex-direction: column; gap: 4px; }
.mm-slot-seats { height: calc(100% - 278px); }
.mm-slot-table { height: 152px; overflow: hidden; }
.mm-slot-table > .mm-section { height: 100%; }
/* The middle and the hand share their room by phase: a turn's composer sits under the hand,
   the evaluation's decision and revealed cards in the middle. Each phase keeps one split. */
.mm-slot-middle { height: 150px; display: flex; flex-direction: column; gap: 6px; }
.mm-root.mm-evaluating .mm-slot-middle { height: 264px; overflow: hidden; }
/* The oven being emptied fills the middle; a decision gives the order being settled its whole
   height and takes the rest: a long list of answers (a Ciottona's kinds and helpers) scrolls
   inside the decision. While the viewer decides (mm-deciding, set on the box by the renderer:
   a rule on the decision before it restyled the box and its heading whenever a decision came
   or went), the order's heading gives its line to the question (the status line says who
   empties the oven; a screen reader still reads the heading). */
.mm-slot-middle > .mm-eval-box { flex: 1 0 auto; }
.mm-slot-middle > .mm-decision { flex: 0 1 auto; min-height: 0; overflow-y: auto; }
.mm-slot-middle > .mm-eval-box.mm-deciding { padding-top: 3px; padding-bottom: 3px; }
.mm-slot-middle > .mm-eval-box.mm-deciding > h4 {
  position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.mm-slot-hand { height: calc(100% - 314px); display: flex; flex-direction: column; gap: 6px; overflow: hidden; }
.mm-root.mm-evaluating .mm-slot-hand { height: calc(100% - 428px); }
.mm-slot-hand > .mm-hand { flex: 1 1 0; min-height: 0; overflow: auto; }
.mm-slot-hand > .mm-composer { flex: none; }
.mm-muted { color: var(--mm-muted); }
@media (prefers-color-scheme: dark) {
  .mm-root { --mm-fg: var(--tw-fg, var(--jp-ui-font-color1, #e6edf3)); --mm-muted: var(--tw-fg2, var(--jp-ui-font-color2, #9da7b3));
    --mm-bg: var(--tw-bg, var(--jp-layout-color1, #161b22)); --mm-panel: var(--tw-bg2, var(--jp-layout-color2, #21262d));
    --mm-border: var(--tw-border, var(--jp-border-color1, #3d444d)); --mm-accent: var(--tw-brand, var(--jp-brand-color1, #58a6ff)); }
}
.mm-root button { font: inherit; cursor: pointer; }
.mm-root button:disabled { cursor: not-allowed; opacity: 0.45; }
.mm-section { background: var(--mm-panel); border: 1px solid var(--mm-border); border-radius: 8px; padding: 6px 8px; }
.mm-section > h4 { margin: 0 0 4px 0; font-size: 0.95em; color: var(--mm-muted); font-weight: 600; }
.mm-row { display: flex; flex-wrap: wrap; gap: 8px; align-items: flex-start; }
.mm-status { display: flex; gap: 12px; flex-wrap: wrap; align-items: baseline; }
.mm-status b { color: var(--mm-fg); }
/* A card's face is the printed card's cream and ink in every theme, written out in each rule: a
   var() is resolved again for every card styled. */
.mm-card {
  position: relative; box-sizing: border-box; width: 72px; min-height: 72px; flex: none;
  border-radius: 6px; border: 2px solid #888;
  background: #fffaf0; color: #2a2118;
  display: inline-flex; flex-direction: column; align-items: center; justify-content: center;
  gap: 2px; padding: 3px; margin: 0; font-size: 11px; line-height: 1.1;
  box-shadow: 0 1px 2px rgba(0,0,0,0.25);
}
.mm-card .mm-icon { width: 30px; height: 30px; flex: none; }
/* Cards that are buttons (the hand, when composing a turn) keep their card face over the
   timeline's button style. */
.mm-root button.mm-card { font-size: 11px; padding: 3px; min-width: 0; color: #2a2118;
  background: #fffaf0; border: 2px solid #888; border-radius: 6px; }
.mm-root button.mm-order { border-width: 3px; }
.mm-root button.mm-card:hover:not(:disabled), .mm-root button.mm-card:focus-visible { outline: 3px dotted var(--mm-choice); outline-offset: 2px; }
.mm-root button.mm-card:disabled { opacity: 0.5; filter: grayscale(0.6); }
/* An ingredient card's colour band along its top is a layer of its background: a box drawn
   for it (a ::before) was one more to style and lay out in every card of the table. */
.mm-ing, .mm-root button.mm-card.mm-ing {
  background: linear-gradient(var(--mm-kind), var(--mm-kind)) top / 100% 6px no-repeat padding-box,
    linear-gradient(#fffaf0, #fffaf0) padding-box, var(--mm-kind) border-box; }
/* A long name breaks at its soft hyphen (Mush-room) rather than run over the card's edge. */
.mm-card-name { font-weight: 600; max-width: 100%; overflow: hidden; letter-spacing: -0.2px; hyphens: manual; text-align: center; }
.mm-count { position: absolute; right: -6px; top: -8px; background: var(--mm-fg); color: var(--mm-bg);
  border-radius: 9px; padding: 0 5px; font-size: 11px; font-weight: 700; }
/* The count is drawn, not written: a card's name (what it shows, for a reader and a voice
   command alike) is its ingredient, and the pile's size is no part of it. */
.mm-count::before { content: "\\D7" attr(data-n); }
.mm-small { width: 40px; min-height: 46px; }
.mm-small .mm-icon { width: 22px; height: 22px; }
.mm-order { width: 150px; min-height: 96px; align-items: stretch; justify-content: flex-start;
  border-width: 3px; text-align: left; }
.mm-order-head { color: #fff; font-weight: 700; padding: 1px 4px;
  border-radius: 3px; text-shadow: 0 1px 1px rgba(0,0,0,0.5); }
.mm-order[data-colour="yellow"] .mm-order-head, .mm-order[data-colour="pink"] .mm-order-head { color: #2a2118; text-shadow: none; }
.mm-recipe { list-style: none; margin: 2px 0 0 0; padding: 0; display: flex; flex-direction: column; gap: 1px; }
.mm-recipe-line { display: flex; align-items: center; gap: 3px; }
.mm-recipe-line .mm-icon { width: 16px; height: 16px; }
.mm-recipe-n { min-width: 18px; text-align: right; font-weight: 700; }
.mm-crossed .mm-icon { opacity: 0.55; }
.mm-crossed { text-decoration: line-through; }
.mm-crossed .mm-recipe-n::after { content: "✕"; color: #c00; font-weight: 900; }
.mm-back { background: repeating-linear-gradient(45deg, #b33a2a 0 5px, #c9583f 5px 10px); color: #fff; border-color: #7a2418; }
.mm-back-mark { font-weight: 800; font-size: 12px; text-shadow: 0 1px 1px #000; }
/* On an order's back the mark sits on a dark patch: white on a yellow or pink seat's stripes
   could not be read. */
.mm-back-order .mm-back-mark { background: rgba(0, 0, 0, 0.62); border-radius: 3px; padding: 0 3px; text-shadow: none; }
.mm-empty { opacity: 0.2; }
.mm-mammamia { background: #b3121b; color: #fff7c2; border-color: #7d0d12; font-weight: 800; text-align: center; }
.mm-mammamia-text { white-space: normal; overflow-wrap: normal; }
.mm-mm-chip { display: inline-block; background: #b3121b; color: #fff7c2; font-weight: 800; border-radius: 4px; padding: 0 4px; }
.mm-pile { display: flex; flex-direction: column; align-items: center; gap: 2px; }
.mm-pile-stack { display: flex; }
.mm-pile .mm-card { width: 50px; min-height: 64px; }
.mm-pile-stack .mm-card + .mm-card { margin-left: -44px; margin-top: 3px; }
.mm-pile-label { color: var(--mm-muted); }
/* The supply's pile (its count changes with most turns) is laid out on its own, at the height
   it has: its backs, 3 px higher from two cards on, over a line of text. */
.mm-supply > .mm-pile { height: calc(69px + 1lh); contain: size layout; }
.mm-supply > .mm-pile.mm-pile-one { height: calc(66px + 1lh); }
/* A count set in place on a line of words (a pile's, a seat's waiter and delivered) is a box of
   its own, drawn the same: setting it shapes its digits alone, not the line's words again. */
.mm-pile-count { color: var(--mm-fg); display: inline-block; }
/* The oven's pile stands above its log, out of the log's flow: a card in or out of the oven
   changes the pile's count, and the log (one line per card put in) is not laid out again for it.
   The log starts 4 px under the pile, whose stacked backs stand 3 px higher from two cards on. */
.mm-oven { position: relative; flex: 1 1 0; min-height: 0; padding-top: 71px; box-sizing: border-box; }
.mm-oven.mm-oven-low { padding-top: 68px; }
.mm-oven > .mm-pile { position: absolute; top: 0; left: 0; right: 0; flex-direction: row; gap: 6px; }
/* The pile (its count and backs) and the log (an entry marked revealed or new) change with most
   frames of an evaluation: each is laid out on its own, at the height it has. */
.mm-oven > .mm-pile { height: 67px; contain: size layout; }
.mm-oven.mm-oven-low > .mm-pile { height: 64px; }
.mm-oven > .mm-log { height: 100%; box-sizing: border-box; contain: size layout; }
/* The oven's log scrolls in the room its region leaves, which no whole number of entries fills:
   its foot fades out, so the entry the region cuts reads as the next one below, not as a line
   cut in half; scrolled to its end, the oldest entry stands whole above the fade. */
.mm-log { list-style: none; margin: 0; padding: 0 0 16px; flex: 1 1 0; min-height: 0; overflow-y: auto;
  mask-image: linear-gradient(to bottom, #000 calc(100% - 20px), transparent calc(100% - 2px)); }
.mm-log li { display: flex; align-items: center; gap: 4px; padding: 1px 0 1px 34px; border-radius: 3px; position: relative; }
.mm-log li .mm-icon { width: 16px; height: 16px; flex: none; }
/* The cards just played: a tint and a "new" badge, the entry's first words, in the room every
   entry keeps for it (its padding: the badge and the gap after it). Only an entry marked has
   the badge, the others carry no box to style for it; out of the flow, marking an entry or taking
   its mark off lays out the badge alone and moves none of the entry's words. */
.mm-log li.mm-log-new { background: color-mix(in srgb, var(--mm-fg) 8%, transparent); }
.mm-log li.mm-log-new::before { content: "new"; position: absolute; left: 0; top: calc(50% - 7.5px); width: 30px; box-sizing: border-box; text-align: center;
  border-radius: 4px; font-size: 11px; line-height: 15px; font-weight: 700; background: var(--mm-fg); color: var(--mm-bg); }
/* A narrow oven (a 900 px table): the badge's room would wrap most entries onto two lines. The
   entries just played keep their tint and take a bar at their edge instead, in room as narrow
   as the bar; "new" is still read, not shown. */
.mm-oven-box { container: mm-oven / inline-size; }
@container mm-oven (max-width: 200px) {
  .mm-log li { padding-left: 5px; }
  .mm-log li.mm-log-new::before { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  .mm-log li.mm-log-new { box-shadow: inset 3px 0 0 var(--mm-fg); }
}
.mm-badge.mm-badge-last { border-radius: 4px; padding: 0 4px; font-weight: 700; background: var(--mm-fg); color: var(--mm-bg); }
.mm-just-played { outline: 3px solid var(--mm-last); outline-offset: 1px; }
.mm-seat.mm-just-moved { outline: 2px dashed var(--mm-last); outline-offset: 1px; }
.mm-last-text { display: block; }
.mm-last-cards { display: flex; gap: 6px; margin-top: 4px; }
.mm-dot { display: inline-block; width: 10px; height: 10px; border-radius: 50%; border: 1px solid rgba(0,0,0,0.4); flex: none; }
.mm-tally { display: flex; flex-wrap: wrap; gap: 6px; }
.mm-tally span { display: inline-flex; align-items: center; gap: 2px; }
.mm-tally .mm-icon { width: 16px; height: 16px; }
/* One row of columns, one per kind, whatever the width: a narrow table draws them closer
   rather than push the last kind onto a row its region cuts off. */
.mm-table { display: flex; gap: 10px; flex-wrap: nowrap; align-items: flex-start; }
.mm-column { display: flex; flex-direction: column; align-items: center; flex: 0 1 58px; min-width: 44px; }
.mm-column-head { display: flex; align-items: center; gap: 3px; font-weight: 700; }
.mm-column-head .mm-icon { width: 18px; height: 18px; }
.mm-column-stack { display: flex; flex-direction: column; align-items: center; }
.mm-column-stack { height: 96px; }
/* A tall column compresses: each card under the top one shows a thinner edge. */
.mm-column-stack .mm-card + .mm-card { margin-top: calc(var(--mm-step, 12px) - 46px); }
.mm-wanted { outline: 3px solid var(--mm-last); outline-offset: -1px; }
/* Cards a made pizza used: ghosts under their column, by where they came from. */
.mm-taken { outline: 3px solid var(--mm-last); outline-offset: -1px; opacity: 0.75; }
.mm-from-hand { outline: 3px dashed var(--mm-warn); outline-offset: -1px; }
.mm-from-helper { outline: 3px dotted #b0379a; outline-offset: -1px; }
/* What the marks of a made order's cards mean takes the heading's line (the heading keeps its
   room, for a screen reader too): under the columns it was cut by the region's foot. */
.mm-table-box { position: relative; }
.mm-table-box.mm-with-legend > h4 { visibility: hidden; }
.mm-legend { position: absolute; top: 5px; left: 8px; right: 8px; display: flex; gap: 6px; flex-wrap: nowrap;
  white-space: nowrap; font-size: 11px; line-height: 14px; color: var(--mm-muted); }
.mm-legend span { padding: 0 4px; border-radius: 3px; opacity: 1; }
.mm-log li.mm-log-revealed { color: var(--mm-muted); text-decoration: line-through; }
/* The entry whose cards are being turned over: underlined, dotted, not slanted (an italic face
   shapes the entry's words again and lays out the log each time a card is turned over). */
.mm-log li.mm-log-revealing { text-decoration: underline dotted; text-underline-offset: 3px; }
/* One seat under the other (the region is never wide enough for two side by side): blocks,
   not a grid, so that a seat's change lays out that seat and not every row of a grid. Each seat
   paints whole before the next (as a grid's items do): the ring of the seat to move covers the
   dashed frame of the seat above it. A seat is the containing block of its words kept for a
   screen reader alone (out of the flow): a badge shown or hidden there is placed within the
   seat, not by an out-of-flow pass over the whole region (twice the layout). */
.mm-seats { padding: 3px; }
.mm-seats > .mm-seat { isolation: isolate; position: relative; }
.mm-seats > .mm-seat + .mm-seat { margin-top: 4px; }
/* Two lines of 16 px a seat: six seats fit the players' region whole, rings included. */
/* A seat's ring, like every colour of a seat's or a kind's, is written out in its colour's rule. */
.mm-seat { border: 2px solid #888; border-radius: 8px; padding: 1px 5px; line-height: 16px; min-width: 0; overflow: hidden;
  background-color: var(--mm-bg); display: block; }
/* Its two lines are blocks of set heights, each laid out on its own: a badge shown or hidden, a
   count or a row of backs set, lays out that line, not the players' region. */
.mm-seat > .mm-seat-name { height: 20px; contain: size layout; }
.mm-seat > .mm-seat-facts { height: 16px; margin-top: 1px; contain: size layout; }
.mm-seat.mm-to-move { box-shadow: 0 0 0 3px var(--mm-turn); }
/* One line whatever the badges (a narrow notebook column included): they keep their words
   whole and the line never wraps into a third. */
.mm-seat-name { display: flex; align-items: center; gap: 3px; font-weight: 700; flex-wrap: nowrap; white-space: nowrap; overflow: hidden; }
.mm-seat-name > * { flex: none; }
.mm-seat-name .mm-badge, .mm-seat-name .mm-mm-chip { font-size: 11px; padding: 0 2px; letter-spacing: -0.1px; }
.mm-seat-facts { color: var(--mm-muted); display: flex; gap: 6px; flex-wrap: nowrap; align-items: center; white-space: nowrap; overflow: hidden; }
.mm-seat-name .mm-icon { width: 16px; height: 16px; flex: none; }
/* A seat to move again right after its own turn (it drew the Mamma Mia card and empties the
   oven) keeps "to move" and its Mamma Mia card's chip in sight: its dashed frame says it just
   played, the words stay for a screen reader (mm-badge-quiet).
   "To move" and "just played" stand in one place every seat keeps for the wider of them: a
   badge shown or hidden (or kept for a screen reader, transparent) is painted, and no box of the
   line moves. A hidden badge is not read either. */
.mm-seat-marks { display: inline-grid; }
.mm-seat-marks > * { grid-area: 1 / 1; justify-self: start; }
.mm-seat-marks > [hidden] { display: inline; visibility: hidden; }
.mm-seat-name .mm-badge-last.mm-badge-quiet { opacity: 0; }
.mm-hand-size { display: inline-flex; align-items: center; gap: 3px; min-width: 0; overflow: hidden; }
.mm-seat-facts b { color: var(--mm-fg); display: inline-block; }
/* A narrow players' region (a notebook beside Lab's file browser: 240 px): the counts keep their
   words, a size smaller, and the backs' picture makes room, so that "hand 8+1" stays whole beside
   a waiter of 14; on the
   name line the seat to move keeps its arrow and ring, the seat that just played its dashed
   frame, their words kept for a screen reader (narrower still, the personal ingredient's icon
   too): the Mamma Mia card's chip is not cut. */
.mm-slot-seats { container-type: inline-size; }
@container (max-width: 290px) {
  .mm-seat-facts { gap: 3px; font-size: 12px; }
  .mm-seat-facts .mm-backs, .mm-seat-facts .mm-gap { display: none; }
  .mm-seat-name .mm-badge-turn .mm-badge-words, .mm-seat-name .mm-badge-last {
    position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  .mm-seat-name .mm-badge-turn::before { content: "\\25B6\\FE0E"; }
}
@container (max-width: 250px) {
  .mm-seat-name .mm-personal { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
}
/* n backs, 6 px of each showing: stripes in the card back's colours, a dark edge per card. */
.mm-backs { display: inline-block; height: 14px; max-width: 110px; border-radius: 3px;
  background: repeating-linear-gradient(90deg, #7a2418 0 1px, #c9583f 1px 6px); border: 1px solid #7a2418; }
/* An empty row by its class, not by its data-count: a rule on an attribute restyles every
   element whose attribute of that name is set to another value (a table's column, whose
   data-count changes with most cards played). */
.mm-backs.mm-n-0 { display: none; }
.mm-gap { width: 4px; }
/* A fact about a seat ("you", "winner") in plain ink; the seat to move in the accent, with an
   arrow. Text on the accent takes the page's background: dark on a dark theme's light accent. */
.mm-badge { font-size: 11px; border-radius: 4px; padding: 0 4px; border: 1px solid var(--mm-muted); color: var(--mm-fg); }
.mm-badge.mm-badge-turn { background: var(--mm-turn); border-color: var(--mm-turn); color: var(--mm-bg); font-weight: 700; }
.mm-badge.mm-badge-turn::before { content: "\\25B6\\FE0E  "; }
.mm-hand { display: flex; flex-direction: column; gap: 4px; }
/* A hand fans as a real one does: when its cards are wider than the region, each card but the
   last gives up width in proportion and the next card covers the rest — the order cards down to a
   20 px edge (colour and the name down its spine), the ingredients' piles down to 28 px
   (colour, icon and their count, which sits on the pile's first card); the last card shows
   whole. A covered card comes forward under the pointer or the keyboard's focus. */
.mm-hand-cards { display: flex; flex-wrap: nowrap; gap: 2px; align-items: flex-start; overflow-x: auto; padding-top: 8px; }
.mm-hand-cards > .mm-hand-order { flex: 0 1 150px; min-width: 20px; }
/* A pile of n cards, each under the next but for a 30 px edge. */
.mm-hand-cards > .mm-hand-group { flex: 0 1 calc(72px + (var(--n, 1) - 1) * 30px); min-width: 28px; }
/* A pile the next card covers (mm-covered, set from the row's width: fanRow) shows its top
   card's colour, its icon moved to the edge that shows, and its count; its name, which would
   be cut short, only when it comes forward. */
.mm-hand-group.mm-covered:not(:hover):not(.mm-focus) .mm-card { align-items: flex-start; }
.mm-hand-group.mm-covered:not(:hover):not(.mm-focus) .mm-card-name { visibility: hidden; }
/* The last card gives up width only when every other one is down to its edge (a hand of
   fourteen in a narrow table): then it too shows its edge rather than run past the region. */
.mm-hand-cards > :not(:last-child) { flex-shrink: 1000; }
.mm-hand-cards > :last-child { flex-shrink: 1; }
.mm-hand-cards > .mm-hand-order:last-child > .mm-order { width: 100%; overflow-x: clip; }
/* A covered card ends where the next begins: a wide one does not run on past a narrow last card. */
.mm-hand-cards > :not(:last-child):not(:hover):not(.mm-focus) { overflow-x: clip; }
.mm-hand-group .mm-count { right: auto; left: 0; z-index: 1; }
.mm-hand-cards > :hover, .mm-hand-cards > .mm-focus { position: relative; z-index: 1; }
.mm-hand-group, .mm-hand-order { display: flex; }
.mm-hand-group .mm-card + .mm-card { margin-left: -42px; }
.mm-hand > * { flex: none; }
/* A covered card shows its colour and icon; its name, cut in half, only on the top card. */
.mm-hand-group .mm-card:not(:last-child) .mm-card-name { visibility: hidden; }
.mm-hand-cards button.mm-card[aria-pressed="true"] { transform: translateY(-8px); outline: 4px double var(--mm-choice); outline-offset: 2px; }
.mm-hand-cards button.mm-card[aria-pressed="true"]::after { content: "\\2713"; position: absolute; left: 2px; top: 7px;
  width: 16px; height: 16px; border-radius: 50%; background: var(--mm-choice); color: var(--mm-bg); font-weight: 800; line-height: 16px; text-align: center; }
.mm-teaching { border-left: 4px solid var(--mm-warn); padding-left: 6px; }
/* The all-seeing view: every hand in sight at once, a row of small cards each, as hands laid
   face up on a table: a pile is its icon and count, an order its recipe's counts and icons (a
   special order its name first; its words for a screen reader and under the pointer). A row
   wider than the region fans as a hand does: each card but the last gives up width down to the
   edge that shows its colour (and, with room, its first count and icon or its name), the next covering the
   rest; a covered card comes forward under the pointer or the keyboard's focus. */
.mm-slot-hand > .mm-hand.mm-teaching { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 6px;
  align-items: center; align-content: start; padding-top: 3px; padding-bottom: 3px; overflow: hidden; }
.mm-hand.mm-teaching > h4 { grid-column: 1 / -1; margin: 0; }
.mm-teaching .mm-hand-owner { display: flex; align-items: center; gap: 3px; white-space: nowrap; font-weight: 600; }
.mm-teaching .mm-hand-cards { padding-top: 0; height: 22px; align-items: stretch; overflow: hidden; }
.mm-teaching .mm-hand-cards > .mm-hand-group, .mm-teaching .mm-hand-cards > .mm-hand-order { flex: 0 1 auto; }
.mm-teaching .mm-hand-cards > .mm-hand-group { min-width: max-content; }
.mm-teaching .mm-hand-cards > .mm-hand-order { min-width: 10px; }
/* The covered orders share what the piles and the last card leave equally (a wide one would
   otherwise keep more than a narrow one), each up to its own width: a row with the room shows
   every covered order's first count and icon. */
.mm-teaching .mm-hand-cards > .mm-hand-order:not(:last-child) { flex: 1 1 0; max-width: max-content; }
.mm-teaching .mm-hand-cards > :last-child { flex-shrink: 0; }
/* A covered card ends where the next begins (a wide one would show past a narrow last card). */
.mm-teaching .mm-hand-cards > .mm-hand-order:not(:hover):not(.mm-focus) { overflow: hidden; }
.mm-teaching .mm-hand-group .mm-card:not(:first-child) { display: none; }
.mm-root .mm-teaching .mm-card { width: auto; min-height: 0; height: 22px; flex-direction: row; align-items: center;
  justify-content: flex-start; gap: 3px; padding: 0 4px 0 2px; box-shadow: none; }
.mm-teaching .mm-card .mm-icon { width: 16px; height: 16px; }
.mm-teaching .mm-hand-group .mm-count { position: static; padding: 0 3px; border-radius: 6px; }
.mm-root .mm-teaching .mm-order { padding: 0 4px 0 0; border-width: 2px 2px 2px 6px; }
.mm-teaching .mm-order > .mm-order-head { align-self: stretch; display: flex; align-items: center; padding: 0 3px; white-space: nowrap; }
.mm-teaching .mm-order.mm-type-normal > .mm-order-head { display: none; }
.mm-teaching .mm-order > .mm-recipe { flex-direction: row; gap: 5px; margin: 0 0 0 3px; }
.mm-teaching .mm-order .mm-recipe-line { gap: 1px; white-space: nowrap; }
.mm-teaching .mm-order .mm-recipe-line .mm-icon { width: 14px; height: 14px; }
.mm-teaching .mm-order .mm-recipe-text { display: none; }
.mm-teaching .mm-order .mm-recipe-n { min-width: 0; }
/* A card chosen in a row of small cards stays in its row: its ring inside its edge, the tick in
   a corner of its own (the card widens for it), clear of the icon and the count. */
.mm-teaching .mm-hand-cards button.mm-card[aria-pressed="true"] { transform: none; outline: 3px solid var(--mm-choice); outline-offset: -3px; padding-right: 14px; }
.mm-teaching .mm-hand-cards button.mm-card[aria-pressed="true"]::after { left: auto; right: 2px; top: 3px; width: 12px; height: 12px;
  line-height: 12px; font-size: 11px; }
/* A narrow table (a notebook beside its file browser): orders show their recipes alone (their
   names in their words) and covered cards their colour's edge, so that a row of ten fits. */
.mm-slot-hand { container: mm-hands / inline-size; }
@container mm-hands (max-width: 480px) {
  .mm-slot-hand > .mm-hand.mm-teaching { column-gap: 4px; }
  .mm-teaching .mm-hand-cards { gap: 0; }
  .mm-root .mm-teaching .mm-hand-group .mm-card { padding: 0 1px; gap: 1px; }
  .mm-teaching .mm-hand-group .mm-count { padding: 0 2px; }
  .mm-teaching .mm-order > .mm-order-head { display: none; }
  .mm-root .mm-teaching .mm-order { border-left-width: 4px; }
  .mm-teaching .mm-order > .mm-recipe { gap: 3px; margin-left: 1px; }
  /* "4×" reads "4" beside its icon (no count on a card reaches 10). */
  .mm-teaching .mm-order .mm-recipe-n { width: 1ch; overflow: hidden; }
}
/* Narrower still (a widget of 360 px): the owner's name without its dot, and a pile the next card
   covers gives up width too, down to its colour's edge and its icon (its count when it comes
   forward), so that the row's last card stays whole. */
@container mm-hands (max-width: 340px) {
  .mm-teaching .mm-hand-owner > .mm-dot { display: none; }
  .mm-slot-hand > .mm-hand.mm-teaching { column-gap: 2px; }
  .mm-teaching .mm-hand-cards > .mm-hand-group:not(:last-child) { min-width: 18px; flex: 0 1 auto; }
  .mm-teaching .mm-hand-cards > .mm-hand-group:not(:last-child):not(:hover):not(.mm-focus) { overflow: hidden; }
}
.mm-controls { display: flex; gap: 6px; flex-wrap: wrap; align-items: center; }
.mm-controls button, .mm-decision button, .mm-tally-toggle {
  border: 1px solid var(--mm-border); background: var(--mm-bg); color: var(--mm-fg);
  border-radius: 5px; padding: 3px 9px; }
.mm-controls button[aria-pressed="true"] { background: var(--mm-choice); color: var(--mm-bg); border-color: var(--mm-choice); }
.mm-controls button[aria-pressed="true"]::before { content: "\\2713  "; }
.mm-root button.mm-play:not(:disabled) { font-weight: 700; background: var(--mm-choice); color: var(--mm-bg); border-color: var(--mm-choice); }
.mm-composed { color: var(--mm-muted); }
.mm-decision { border: 3px double var(--mm-choice); border-radius: 8px; padding: 2px 6px 3px; background: var(--mm-bg);
  display: flex; flex-direction: column; gap: 3px; }
.mm-decision-q { font-weight: 700; }
.mm-root .mm-decision button { padding: 1px 8px; }
.mm-decision-answers { display: flex; gap: 6px; flex-wrap: wrap; }
/* A list of answers longer than its region says so at its foot while more lie below: the note
   stays at the region's foot as the list scrolls (it takes no room of its own) and shows only
   while the decision's scroll has not reached its end (a scroll-driven animation; with no
   overflow the timeline is inactive and the note stays hidden). */
.mm-decision-more { position: sticky; bottom: -3px; height: 0; margin-top: -3px; visibility: hidden;
  animation: mm-more-below linear; animation-timeline: scroll(nearest block); animation-range: 0 calc(100% - 2px); }
.mm-decision-more > span { position: absolute; left: -6px; right: -6px; bottom: 0; padding: 12px 8px 1px; text-align: right;
  font-size: 12px; font-weight: 600; color: var(--mm-choice); background: linear-gradient(to bottom, transparent, var(--mm-bg) 12px); }
@keyframes mm-more-below { from, to { visibility: visible; } }
.mm-eval { display: flex; gap: 10px; flex-wrap: nowrap; align-items: flex-start; }
/* The cards revealed so far, newest on the right next to the order being settled, each drawn at
   a size of its own: an ingredient as a small card, an order as its spine (its owner's colour and
   its name; the order being settled shows whole beside them). Nothing in the strip is sized by
   its neighbours, so a card revealed lays out itself alone; the oldest are cut at the strip's left
   edge when it is narrow. */
.mm-revealed { flex: 1 1 0; min-width: 240px; display: flex; gap: 3px; justify-content: flex-end; align-items: flex-end; overflow: hidden; padding: 2px 0; }
.mm-revealed > .mm-small { height: 46px; }
.mm-spine { box-sizing: border-box; flex: none; width: 30px; height: 96px; padding: 4px 1px; border-radius: 4px;
  color: #fff; font-size: 11px; font-weight: 700; line-height: 13px; writing-mode: vertical-rl;
  text-shadow: 0 1px 1px rgba(0,0,0,0.5); overflow: hidden; }
.mm-spine.mm-c-yellow, .mm-spine.mm-c-pink { color: #2a2118; text-shadow: none; }
/* A narrow table (a notebook beside its file browser): the order being settled keeps its room,
   the strip what is left. */
.mm-eval-box { container: mm-eval / inline-size; }
@container mm-eval (max-width: 560px) { .mm-revealed { min-width: 0; } }
/* The order being settled: its card, and beside it whose it is and where its cards come from. */
.mm-settle { flex: 0 1 auto; min-width: 0; display: grid; grid-template-columns: 150px minmax(90px, 170px); column-gap: 6px; row-gap: 2px; align-content: start; }
.mm-settle > .mm-order { grid-column: 1; grid-row: 1 / span 6; }
.mm-settle > :not(.mm-order) { grid-column: 2; min-width: 0; }
/* A covered order card (in a fanned hand) shows its name down its edge, as a spine,
   and its recipe's counts and icons: each card of a fan stays known by what shows of it. It
   opens whole when it comes forward: under the pointer or the keyboard's focus (a card chosen
   by a click closes again when the pointer leaves it, though it keeps the focus). */
.mm-covered:not(:hover):not(.mm-focus) > .mm-order { flex-direction: row; align-items: stretch; gap: 2px; }
.mm-covered:not(:hover):not(.mm-focus) > .mm-order > .mm-order-head { writing-mode: vertical-rl; flex: none; padding: 3px 1px;
  white-space: nowrap; overflow: hidden; line-height: 14px; }
.mm-covered:not(:hover):not(.mm-focus) > .mm-order > .mm-recipe { flex: none; margin: 0; }
.mm-covered:not(:hover):not(.mm-focus) > .mm-order .mm-recipe-text { display: none; }
.mm-covered:not(:hover):not(.mm-focus) > .mm-order .mm-recipe-n { min-width: 0; }
.mm-settle-line { display: flex; gap: 4px; align-items: center; flex-wrap: wrap; }
.mm-settle-line .mm-icon { width: 16px; height: 16px; }
.mm-result { font-size: 1.1em; font-weight: 700; }
/* A narrow table (a notebook in a side panel, a split pane): the regions stand in one column,
   each as wide as the table, in the order a player reads them (what lies on the table, what
   just happened or is being settled, the hand and the turn, then the oven and the players). The
   column is taller than the table's box, which scrolls it; its rows keep their heights, so the
   footprint is still one for every frame. */
@container tw-main (max-width: 599px) {
  .mm-root { grid-template-columns: minmax(0, 1fr); height: auto;
    grid-template-rows: 34px 152px 150px 288px 232px 300px; }
  .mm-root.mm-evaluating { grid-template-rows: 34px 152px 264px 174px 232px 300px; }
  /* The status line may take two lines: the oven, whose turn or decision, the result. */
  .mm-slot-status { white-space: normal; line-height: 16px; }
  .mm-status { row-gap: 0; }
  .mm-left, .mm-right { display: contents; }
  /* Each region takes its row's height (the status line its box's). */
  .mm-root .mm-slot, .mm-root.mm-evaluating .mm-slot { height: auto; margin-top: 0; }
  .mm-root .mm-top > .mm-slot-status { height: 100%; }
  .mm-slot-table { grid-row: 2; }
  .mm-slot-middle { grid-row: 3; }
  .mm-slot-hand { grid-row: 4; }
  .mm-slot-oven { grid-row: 5; }
  .mm-slot-seats { grid-row: 6; }
}
`;

// ----------------------------------------------------------------------------------------
// The engine's action notation (docs/rules/mamma-mia.md), parsed into what the composer and
// the decision dialog need. Unknown notations stay playable as plain buttons.

// Turns: "put 2 salami; order 4 pineapple + 1 pepper; draw supply" (each part optional,
// "draw 3 from waiter" with optional actions, "pass" when nothing), "draw 5 ingredients" (Plus,
// no ingredient in hand). Decisions: "make [with K[+K]] [adding 1 pineapple + 2 salami]",
// "ask [with K] for 1 olive", "send back", "help", "refuse".

/** A notation → {type: "turn"|"restock"|"make"|"ask"|"send-back"|"help"|"refuse"|"other", notation, ...}. */
export function parseAction(notation) {
  const text = String(notation).trim();
  if (text === "pass") return { type: "turn", notation, kind: null, count: 0, order: null, source: null, draw: null };
  if (text === "draw 5 ingredients") return { type: "restock", notation };
  if (text === "send back") return { type: "send-back", notation };
  if (text === "help") return { type: "help", notation };
  if (text === "refuse") return { type: "refuse", notation };
  let m = /^make(?: with ([a-z+]+))?(?: adding (.+))?$/.exec(text);
  if (m) return { type: "make", notation, variant: m[1] || null, add: m[2] || null };
  m = /^ask(?: with ([a-z+]+))? for (.+)$/.exec(text);
  if (m) return { type: "ask", notation, variant: m[1] || null, cards: m[2] };
  const turn = { type: "turn", notation, kind: null, count: 0, order: null, source: null, draw: null };
  for (const part of text.split("; ")) {
    if ((m = /^put (\d+) ([a-z]+)$/.exec(part))) {
      turn.count = Number(m[1]);
      turn.kind = m[2];
    } else if ((m = /^order (.+)$/.exec(part))) turn.order = m[1];
    else if ((m = /^draw (supply|waiter)$/.exec(part))) turn.source = m[1];
    else if ((m = /^draw (\d+) from (supply|waiter)$/.exec(part))) {
      turn.draw = Number(m[1]);
      turn.source = m[2];
    } else return { type: "other", notation };
  }
  return turn;
}

/** "1 pineapple + 2 salami" → "1 pineapple and 2 salami" with readable plurals. */
function cardsWords(text) {
  return String(text)
    .split(" + ")
    .map((part) => {
      const m = /^(\d+) ([a-z]+)$/.exec(part);
      return m ? `${m[1]} ${kindLabel(m[2], Number(m[1]))}` : part;
    })
    .join(" and ");
}

function variantWords(variant) {
  return variant ? variant.split("+").map((k) => kindLabel(k, 2)).join(" and ") : "";
}

/** A readable label for a parsed action (a decision's answer, a special turn). */
export function describeAction(action, view, ctx) {
  if (!action) return "";
  const decision = view && view.evaluation && view.evaluation.decision;
  switch (action.type) {
    case "make": {
      const how = action.variant ? ` with ${variantWords(action.variant)}` : "";
      return action.add ? `Make it${how}, adding ${cardsWords(action.add)} from my hand` : `Make it${how} from the table`;
    }
    case "ask": {
      const how = action.variant ? ` (with ${variantWords(action.variant)})` : "";
      return `Ask for help${how}: "I need ${cardsWords(action.cards)}"`;
    }
    case "send-back":
      return "Send it back under my waiter";
    case "help": {
      const ask = decision && decision.ask ? countsText(decision.ask, view.kinds) : "";
      return ask ? `Help: give ${ask}` : "Help";
    }
    case "refuse":
      return "Refuse";
    case "restock":
      return "Draw 5 ingredients (no ingredient in hand)";
    default:
      return action.notation;
  }
}

const NAMES = (view, ctx) => (ctx && ctx.seatNames && ctx.seatNames.length ? ctx.seatNames : view.seats || []);

function seatName(view, ctx, seat) {
  if (seat === null || seat === undefined) return "—";
  const names = NAMES(view, ctx);
  return names[seat] || `Seat ${seat + 1}`;
}

/** A seat's dot's classes: the dot in its seat's colour. */
const dotClass = (colour) => `mm-dot ${colourClass(colour)}`;

function seatDot(doc, colour) {
  return el(doc, "span", { class: dotClass(colour), "aria-hidden": "true" });
}

function seatPlayers(view) {
  // The observation's per-seat list ("players"; a bare count when an engine gives only that).
  return Array.isArray(view.players) ? view.players : [];
}

function seatCount(view) {
  if (typeof view.players === "number") return view.players;
  return seatPlayers(view).length || (view.seats || []).length;
}

/** Per-kind and per-colour totals of the oven's public log (the teaching tally), in the
 * engine's shape `{ingredients: {kind: n}, orders: {colour: n}}`. */
export function tallyOf(log, view) {
  const kinds = {};
  const orders = {};
  for (const entry of log || []) {
    if (entry.kind) kinds[entry.kind] = (kinds[entry.kind] || 0) + (entry.count || 0);
    else if (entry.order !== undefined) {
      const colour = typeof entry.order === "string" ? entry.order : (view.colours || [])[entry.seat];
      orders[colour] = (orders[colour] || 0) + 1;
    }
  }
  return { ingredients: kinds, orders };
}

/**
 * The cards the frame's turn just put in the oven, from the turn event's public data:
 * `{seat, put: {kind, count} | null, order: bool, source, drew}`, or null when the frame is
 * no turn (a set-up, a reveal, a decision).
 */
export function lastPlayed(frame) {
  const data = frame && frame.kind === "turn" ? frame.data || {} : null;
  if (!data || !Number.isInteger(data.seat)) return null;
  const put = data.put && typeof data.put.kind === "string" ? { kind: data.put.kind, count: Number(data.put.count) || 0 } : null;
  return { seat: data.seat, put, order: !!data.order, source: data.source || null, drew: Number(data.drew) || 0 };
}

/** Log indices of the cards `played` put in the oven: the newest entries, ingredient first. */
export function playedEntries(log, played) {
  const out = new Set();
  if (!played || !Array.isArray(log)) return out;
  let i = log.length - 1;
  if (played.order && i >= 0 && log[i].order !== undefined && log[i].seat === played.seat) out.add(i--);
  if (played.put && i >= 0 && log[i].kind === played.put.kind && log[i].seat === played.seat) out.add(i);
  return out;
}

/** Between evaluations: what the last turn did, in words and cards, each part redrawn when
 * its own inputs change. */
export function lastTurnItem(doc, view, ctx, frame) {
  const played = lastPlayed(frame);
  const items = [fixed("head", () => el(doc, "h4", {}, "Last turn"))];
  if (!played) {
    items.push(textItem("none", () => el(doc, "div", { class: "mm-muted" }), frame && frame.step === 0 ? "No turn played yet." : "—"));
  } else {
    const colour = (view.colours || [])[played.seat];
    const who = seatName(view, ctx, played.seat);
    const parts = [];
    const cards = [];
    if (played.put) {
      const { kind, count } = played.put;
      parts.push(`put ${count} ${kindLabel(kind, count)} in the oven`);
      cards.push({
        key: "put",
        sig: J([kind, count]),
        build: () => {
          const card = ingredientCard(kind, { mark: "mm-just-played", title: `just played: ${count} ${kindLabel(kind, count)}` }, doc);
          if (count > 1) card.append(el(doc, "span", { class: "mm-count", "aria-hidden": "true", dataset: { n: String(count) } }));
          return card;
        },
      });
    }
    if (played.order) {
      parts.push("put an order in the oven, face down");
      cards.push({
        key: "order",
        sig: colour || "",
        build: () => {
          const back = cardBack("order", colour, doc);
          back.classList.add("mm-just-played");
          return back;
        },
      });
    }
    // As the log says it: a waiter holds its seat's orders ("drew 1 from the waiter" read as a
    // waiter of the table's).
    if (played.drew) {
      parts.push(played.source === "waiter" ? `drew ${played.drew} order${played.drew === 1 ? "" : "s"} from their waiter` : `drew ${played.drew} from the supply`);
    }
    const words = ` ${who} ${parts.length ? parts.join(", ") : "passed"}.`;
    const dot = dotClass(colour);
    items.push({
      key: "text",
      build: () => el(doc, "div", { class: "mm-last-text" }, seatDot(doc, colour), words),
      update: (node) => {
        if (node.firstChild.className !== dot) node.firstChild.className = dot;
        if (node.lastChild.nodeValue !== words) node.lastChild.nodeValue = words;
      },
    });
    if (cards.length) {
      const seat = String(played.seat);
      items.push({
        ...shell("cards", () => el(doc, "div", { class: "mm-last-cards", dataset: { seat } }), cards),
        patch: (node) => {
          if (node.dataset.seat !== seat) node.dataset.seat = seat;
        },
      });
    }
  }
  return shell("last", () => el(doc, "div", { class: "mm-section mm-last-turn" }), items);
}

export function drawLastTurn(doc, view, ctx, frame) {
  return drawn(doc, [lastTurnItem(doc, view, ctx, frame)])[0];
}

// ----------------------------------------------------------------------------------------
// Sections of the table. Each is a pure function (view, ctx, ...) → element.

/** A node whose text is set in place: `{key, build, update}` for dom.reconcile. */
function textItem(key, build, text) {
  return {
    key,
    build,
    update: (node) => setText(node, text),
  };
}

/** The status line: the edition, the oven, and what happens now, each set in place. */
export function statusItems(doc, view, ctx) {
  const ed = view.edition === "plus" ? "Mamma Mia! Plus" : "Mamma Mia!";
  let now = null;
  if (view.phase === "over") {
    const winners = (view.winners || []).map((s) => seatName(view, ctx, s)).join(" and ");
    const text = winners ? `Game over — ${winners} ${view.winners.length > 1 ? "share the win" : "wins"}` : "Game over";
    now = textItem("result", () => el(doc, "span", { class: "mm-result" }), text);
  } else if (view.phase === "evaluation") {
    const decision = view.evaluation && view.evaluation.decision;
    now = textItem("emptying", () => el(doc, "span", {}), decision ? `Emptying the oven — ${seatName(view, ctx, decision.seat)} decides` : "Emptying the oven");
  } else if (view.to_move !== null && view.to_move !== undefined) {
    const toMoveDot = dotClass((view.colours || [])[view.to_move]);
    const text = `${seatName(view, ctx, view.to_move)} to play`;
    now = {
      key: "turn",
      build: () => el(doc, "span", { class: "mm-turn" }, seatDot(doc, (view.colours || [])[view.to_move]), " ", text),
      update: (node) => {
        const dot = node.firstChild;
        if (dot.className !== toMoveDot) dot.className = toMoveDot;
        if (node.lastChild.nodeValue !== text) node.lastChild.nodeValue = text;
      },
    };
  }
  return [
    shell("status", () => el(doc, "div", { class: "mm-status" }), [
      { key: "edition", sig: ed, build: () => el(doc, "span", { class: "mm-edition" }, el(doc, "b", {}, ed)) },
      view.oven_number !== undefined
        ? textItem("oven", () => el(doc, "span", { class: "mm-oven-number" }), `Oven ${view.oven_number} of ${view.ovens}`)
        : null,
      now,
    ]),
  ];
}

export function drawStatus(doc, view, ctx) {
  return drawn(doc, statusItems(doc, view, ctx))[0];
}

// The larger regions are lists of items for dom.reconcile ({key, sig, build} or {key, build,
// update}): a frame rebuilds only the items whose inputs (`sig`) changed, so stepping through
// a timeline touches the one log entry, seat or card that moved. `draw*` builds a region afresh.

// A view's parts are shared between frames (the timeline patches a view into the next one, and
// renderers never change a view), so each part is written out once, not on every frame.
const written = new WeakMap();
function writeOut(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  let text = written.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    written.set(value, text);
  }
  return text;
}
/** The signature of a list of inputs: JSON.stringify's text, each part written out once. */
function J(value) {
  return Array.isArray(value) ? `[${value.map(writeOut).join(",")}]` : writeOut(value);
}
/** Whether two lists of inputs are the same part by part. A view's unchanged parts are the
 * same objects from frame to frame, so comparing them writes nothing out (most of a frame's
 * view, the oven's log and the revealed cards, was written out again on every frame); a part
 * rebuilt equal only draws again what it feeds. */
function sameParts(a, b) {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
/** An item's `update` that runs only when what its node was drawn from (a list of parts, or
 * null: always) changed. */
function whenChanged(drawnFrom, update) {
  return (node) => {
    if (drawnFrom !== null && sameParts(node._mmDrawnFrom, drawnFrom)) return;
    node._mmDrawnFrom = drawnFrom;
    update(node);
  };
}


/** A face-down pile whose count is set in place. */
function pileItem(doc, key, which, count, label) {
  // Set again only when its count changed: the oven's region is drawn again for every card put
  // in or revealed, and the supply's count changes only when a turn draws from it.
  return { key, build: () => pile(which, count, label, null, doc), update: whenChanged([count, label], (node) => setPileCount(node, which, count, label, doc)) };
}

function ovenLogEntry(doc, view, ctx, entry, i) {
  const colour = (view.colours || [])[entry.seat];
  const item = el(doc, "li", { dataset: { key: String(i), seat: entry.seat === null || entry.seat === undefined ? "base" : String(entry.seat) } });
  const who = entry.base || entry.seat === null || entry.seat === undefined ? "left on the table from the last oven" : seatName(view, ctx, entry.seat);
  if (!entry.base && entry.seat !== null && entry.seat !== undefined) item.append(seatDot(doc, colour));
  if (entry.kind) {
    item.append(`${who}: ${entry.count} ${kindLabel(entry.kind, entry.count)}`, ingredientIcon(entry.kind, doc));
    item.dataset.kind = entry.kind;
  } else {
    const oc = typeof entry.order === "string" ? entry.order : colour;
    // The all-seeing view names the face-down order; a seat's view never has `card`.
    item.append(entry.card ? `${who}: an order, face down: ${orderName(entry.card)}` : `${who}: an order (face down)`);
    item.dataset.order = String(oc);
  }
  return item;
}

/** An entry's marks: its class (the cards just played, revealed, being revealed), the cards
 * of it turned over so far. */
function markLogEntry(item, cls, partly) {
  // Set once per drawing of the entry (its signature) and marks.
  if (item._mmSig === item._twSig && item._mmCls === cls && item._mmPartly === partly) return;
  item._mmSig = item._twSig;
  item._mmCls = cls;
  item._mmPartly = partly;
  if (item.className !== cls) {
    if (cls) item.className = cls;
    else item.removeAttribute("class");
  }
  const last = item.lastChild;
  const turned = last && last.nodeType === 3 && last.nodeValue.startsWith(" (") ? last : null;
  const text = partly === undefined ? null : ` (${partly} turned over)`;
  if (text === null) {
    if (turned) turned.remove();
  } else if (!turned) item.append(text);
  else if (turned.nodeValue !== text) turned.nodeValue = text;
}

/** Each log entry's marks, by its index: its class (the cards just played, revealed, being
 * revealed) and how many of its cards are turned over when only some are. */
function logMarks(view, log, played) {
  // During the evaluation the first cards of the log have been revealed; count them off.
  let revealedCards = ((view.evaluation && view.evaluation.revealed) || []).length;
  const fresh = playedEntries(log, played);
  const cls = new Array(log.length);
  const partly = new Array(log.length);
  for (let i = 0; i < log.length; i++) {
    const entry = log[i];
    const n = entry.kind ? entry.count || 0 : 1;
    let c = fresh.has(i) ? "mm-log-new" : "";
    if (revealedCards >= n && n > 0) {
      c = c ? `${c} mm-log-revealed` : "mm-log-revealed";
      revealedCards -= n;
    } else {
      // The emptier turns one card over per sub-step, so an entry may be partly revealed.
      if (revealedCards > 0) {
        partly[i] = revealedCards;
        c = c ? `${c} mm-log-revealing` : "mm-log-revealing";
      }
      revealedCards = 0;
    }
    cls[i] = c;
  }
  return { cls, partly };
}

/** The oven's public log, newest first: the top of the oven is what was just heard. */
function ovenLogItems(doc, view, ctx, log, played) {
  const marks = logMarks(view, log, played);
  const items = [];
  for (let i = log.length - 1; i >= 0; i--) items.push(logEntryItem(doc, view, ctx, log, i, marks));
  return items;
}

/** Entry `i` of the oven's `log` as an item, with its `marks`. */
function logEntryItem(doc, view, ctx, log, i, marks) {
  const entry = log[i];
  const cls = marks.cls[i];
  const part = marks.partly[i];
  return {
    key: i,
    sig: entrySig(entry, seatName(view, ctx, entry.seat), (view.colours || [])[entry.seat]),
    build: () => ovenLogEntry(doc, view, ctx, entry, i),
    patch: (node) => markLogEntry(node, cls, part),
  };
}

/** The oven's log as an item: the same entries drawn with the same names and colours (a card
 * revealed, a frame of the evaluation) have only their marks set again, entry by entry, with no
 * items made for them. */
function ovenLogItem(doc, view, ctx, log, played) {
  const drawnFrom = [log, writeOut(NAMES(view, ctx)), view.colours];
  return {
    key: "log",
    // Scrolls inside its fixed region: focusable, so a keyboard can scroll it too.
    build: () => el(doc, "ol", { class: "mm-log", "aria-label": "the oven's public log", reversed: true, tabindex: 0 }),
    update: (list) => {
      const before = list._mmDrawnFrom;
      const marks = logMarks(view, log, played);
      const marked = list._mmMarks;
      list._mmMarks = marks;
      if (!sameParts(before, drawnFrom)) {
        list._mmDrawnFrom = drawnFrom;
        const sameNames = before && before[1] === drawnFrom[1] && before[2] === drawnFrom[2];
        if (!sameNames || !moveLogEnd(doc, view, ctx, list, before[0], log, marks)) {
          reconcile(list, ovenLogItems(doc, view, ctx, log, played));
          return;
        }
      }
      // Only the entries whose marks changed are gone to: a card revealed marks one entry, a turn
      // the newest ones (the list holds entry i at log.length - 1 - i).
      if (marked && list.childElementCount === log.length) {
        const entries = list.children;
        for (let i = 0; i < log.length; i++) {
          if (marked.cls[i] !== marks.cls[i] || marked.partly[i] !== marks.partly[i]) markLogEntry(entries[log.length - 1 - i], marks.cls[i], marks.partly[i]);
        }
        return;
      }
      for (let entry = list.firstChild; entry; entry = entry.nextSibling) markLogEntry(entry, marks.cls[entry._twKey], marks.partly[entry._twKey]);
    },
  };
}

/** A list drawn from the log `old` made the log `log` when one is the other with entries added at
 * its end (a turn, a step back): the entries that came are built, with their `marks`, at the top
 * of the list (newest first), those that went are taken off it, and the others are left as they
 * are, with no item made for each. False when the logs differ otherwise (a new oven), or the list
 * does not hold one entry for each of `old`'s. */
function moveLogEnd(doc, view, ctx, list, old, log, marks) {
  if (!Array.isArray(old) || list.childElementCount !== old.length) return false;
  const shared = Math.min(old.length, log.length);
  for (let i = 0; i < shared; i++) if (old[i] !== log[i]) return false;
  for (let i = old.length; i > log.length; i--) list.firstChild.remove();
  if (log.length > old.length) {
    const fresh = docOf(doc).createDocumentFragment();
    // Built and marked before they are in the page, as reconcile builds them.
    for (let i = log.length - 1; i >= old.length; i--) fresh.append(builtNode(logEntryItem(doc, view, ctx, log, i, marks)));
    list.insertBefore(fresh, list.firstChild);
  }
  return true;
}

// A log entry's signature, written out once per entry (the log's entries are shared between
// frames) and the name and colour it was drawn with: a frame's log of dozens of entries writes none.
const entrySigs = new WeakMap();
function entrySig(entry, name, colour) {
  let memo = entrySigs.get(entry);
  if (!memo || memo.name !== name || memo.colour !== colour) {
    memo = { name, colour, sig: J([entry, name, colour]) };
    entrySigs.set(entry, memo);
  }
  return memo.sig;
}

function tallyBox(doc, view, log) {
  // Summed here from the public log, as the engine's `observe(tally=True)` sums it: a display
  // switch never waits for the kernel.
  const tally = tallyOf(log, view);
  const box = el(doc, "div", { class: "mm-tally", "aria-label": "tally of the oven" }, el(doc, "b", {}, "In the oven: "));
  for (const kind of view.kinds || Object.keys(KINDS)) {
    const n = (tally.ingredients || {})[kind] || 0;
    box.append(el(doc, "span", { dataset: { kind } }, ingredientIcon(kind, doc), `${n}`));
  }
  for (const [colour, n] of Object.entries(tally.orders || {})) {
    box.append(el(doc, "span", { dataset: { order: colour } }, seatDot(doc, colour), `${n} order${n === 1 ? "" : "s"}`));
  }
  return box;
}

/** The supply and the oven: its pile, its public log and the teaching tally. */
export function supplyAndOvenItems(doc, view, ctx, settings, played = null) {
  const oven = view.oven || { size: 0, log: [] };
  const log = oven.log || [];
  const tallyOn = !!(settings && settings.tally);
  const size = oven.size || 0;
  return [
    shell("supply", () => el(doc, "div", { class: "mm-section mm-supply" }), [
      fixed("head", () => el(doc, "h4", {}, "Supply")),
      pileItem(doc, "pile", "supply", view.supply || 0, "cards"),
      view.mamma_mia_card === "supply" ? fixed("mm", () => el(doc, "div", { class: "mm-mm-in-supply" }, "The Mamma Mia card is in the supply.")) : null,
    ]),
    shell("oven", () => el(doc, "div", { class: "mm-section mm-oven-box" }), () => [
      fixed("head", () => el(doc, "h4", {}, "Oven")),
      {
        ...shell("body", () => el(doc, "div", { class: "mm-oven" }), () => [
          pileItem(doc, "pile", "oven", size, "cards"),
          log.length
            ? ovenLogItem(doc, view, ctx, log, played)
            : fixed("empty", () => el(doc, "div", { class: "mm-muted" }, "The oven is empty.")),
        ]),
        // One back (an oven of at most one card) stands 3 px lower than a stack of two or three.
        patch: (node) => node.classList.toggle("mm-oven-low", size <= 1),
      },
      tallyOn ? { key: "tally", sig: J([log, view.kinds, view.colours]), build: () => tallyBox(doc, view, log) } : null,
      {
        key: "toggle",
        sig: String(tallyOn),
        build: () => el(doc, "button", { type: "button", class: "mm-tally-toggle", "aria-pressed": String(tallyOn), dataset: { action: "tally" } }, tallyOn ? "Hide tally" : "Show tally"),
      },
    ]),
  ];
}

export function drawSupplyAndOven(doc, view, ctx, settings, played = null) {
  return drawn(doc, supplyAndOvenItems(doc, view, ctx, settings, played));
}

/** A column of the table, set in place: its count, and its cards as items (a card revealed
 * adds one card and uncovers nothing else). */
function tableColumnItem(doc, kind, n, want, gone) {
  // What the column is drawn from: a card revealed changes one column, and the others are not
  // gone through.
  let drawnFrom = `${n}|${want}`;
  for (const group of gone) if (group.counts[kind]) drawnFrom += `|${group.counts[kind]} ${group.mark} ${group.label}`;
  const title = `${n} ${kindLabel(kind, n)} on the table`;
  const parts = () => {
    // The column's cards bottom to top: those on the table, then the ghosts of the cards a
    // made pizza used. Only the top card is seen whole; the others show their coloured edge.
    const cards = [];
    for (let i = 0; i < n; i++) cards.push({ mark: i >= n - want ? "mm-wanted" : null });
    for (const group of gone) {
      for (let i = 0; i < (group.counts[kind] || 0); i++) cards.push({ mark: group.mark, title: `${kindLabel(kind)} ${group.label}`, ghost: true });
    }
    // 96 px hold a column of any height: each card under the top one shows up to 12 px of edge.
    const step = cards.length > 1 ? `${Math.min(12, (96 - 46) / (cards.length - 1)).toFixed(2)}px` : "";
    // Keyed from the top: a card laid on a column keeps the top card's node (drawn whole) and
    // adds a bare edge under it, instead of building a whole card and stripping the one below.
    // A card's key keeps it bare or whole; its mark and title are set in place.
    const cardItems = cards.map((c, i) => {
      const opts = { small: true, bare: i < cards.length - 1, mark: c.mark, title: c.title, tip: true };
      return {
        key: cards.length - 1 - i,
        build: () => ingredientCard(kind, opts, doc),
        update: (card) => {
          markIngredientCard(card, kind, opts);
          if ((card.dataset.ghost === "1") !== !!c.ghost) {
            if (c.ghost) card.dataset.ghost = "1";
            else delete card.dataset.ghost;
          }
        },
      };
    });
    return [
      {
        key: "head",
        build: () => el(doc, "div", { class: "mm-column-head" }, ingredientIcon(kind, doc), el(doc, "span", { class: "mm-column-count" })),
        update: (head) => {
          setTip(head, title);
          setText(head.lastChild, String(n));
        },
      },
      {
        key: "stack",
        build: () => el(doc, "div", { class: "mm-column-stack" }),
        update: (stack) => {
          if (stack.style.getPropertyValue("--mm-step") !== step) {
            if (step) stack.style.setProperty("--mm-step", step);
            else stack.removeAttribute("style");
          }
          reconcile(stack, cardItems);
        },
      },
    ];
  };
  return {
    key: kind,
    build: () => el(doc, "div", { class: "mm-column", dataset: { kind, count: String(n) } }),
    update: whenChanged([drawnFrom], (col) => {
      if (col.dataset.count !== String(n)) col.dataset.count = String(n);
      reconcile(col, parts());
    }),
  };
}

/**
 * The table: one column per kind of the edition, stacked card icons and a count.
 * `opts.wanted`: cards an order would take, marked on top of their columns; `opts.gone`: the
 * groups of cards a made order used (from the table, a hand, a helper), drawn as marked ghosts
 * after the column's remaining cards.
 */
export function tableItems(doc, view, opts = {}) {
  const counts = view.table || {};
  const wanted = opts.wanted || {};
  const gone = opts.gone || [];
  const columns = (view.kinds || Object.keys(counts)).map((kind) => {
    const n = counts[kind] || 0;
    const want = Math.min(wanted[kind] || 0, n);
    return tableColumnItem(doc, kind, n, want, gone);
  });
  const legend = gone.filter((g) => Object.values(g.counts).some(Boolean)).map((g) => [g.mark, g.legend]);
  const withLegend = gone.length > 0;
  return [
    {
      ...shell("table", () => el(doc, "div", { class: "mm-section mm-table-box" }), [
        fixed("head", () => el(doc, "h4", {}, "Table")),
        shell("row", () => el(doc, "div", { class: "mm-table" }), columns),
        withLegend
          ? { key: "legend", sig: J(legend), build: () => el(doc, "div", { class: "mm-legend" }, ...legend.map(([mark, text]) => el(doc, "span", { class: mark }, ` ${text} `))) }
          : null,
      ]),
      patch: (box) => {
        if (box.classList.contains("mm-with-legend") !== withLegend) box.classList.toggle("mm-with-legend", withLegend);
      },
    },
  ];
}

export function drawTable(doc, view, opts = {}) {
  return drawn(doc, tableItems(doc, view, opts))[0];
}

// A row of n backs is 6 px a card and 6 px more, up to 110 px (18 cards and more), set by a
// class: a width written in each row's own style makes its style its own to compute.
const BACKS_MAX = 18;
const BACKS_CSS = Array.from({ length: BACKS_MAX + 1 }, (_, n) => `.mm-backs.mm-n-${n} { width: ${n * 6 + 6}px; }`).join("\n");
const backsClass = (which, n, colour) => `mm-backs mm-backs-${which} ${colourClass(colour)} mm-n-${Math.min(Math.max(0, Math.floor(Number(n) || 0)), BACKS_MAX)}`;

/** A seat's hidden cards as a fanned row of backs: one element whose width counts them. */
function backsRow(doc, n, which, colour) {
  return el(doc, "span", {
    class: backsClass(which, n, colour),
    dataset: { back: which, count: String(n) },
    "aria-hidden": "true",
  });
}

/** A seat's name line: its parts are items. Its badges stay in the line and are shown or
 * hidden, so the turn passing on sets two attributes instead of taking a node out of the page
 * and putting another in. */
function seatNameItems(doc, view, ctx, played, s, p, colour) {
  const personal = (view.personal || [])[s];
  const name = seatName(view, ctx, s);
  const toMove = view.to_move === s && view.phase !== "over";
  const justPlayed = !!played && played.seat === s;
  const badge = (key, cls, text, shown) => ({
    ...fixed(key, () => el(doc, "span", { class: cls }, el(doc, "span", { class: "mm-badge-words" }, text))),
    patch: (node) => { if (node.hidden === shown) node.hidden = !shown; },
  });
  return [
    personal ? { key: "personal", sig: personal, build: () => el(doc, "span", { class: "mm-personal", title: `personal ingredient: ${kindLabel(personal)}` }, ingredientIcon(personal, doc)) } : null,
    { key: "dot", sig: colour || "", build: () => seatDot(doc, colour) },
    { key: "name", sig: name, build: () => doc.createTextNode(name) },
    badge("you", "mm-badge", "you", !!ctx && ctx.seat === s),
    // The badges that pass on with the turn share one place kept for them in every seat.
    shell("marks", () => el(doc, "span", { class: "mm-seat-marks" }), [
      badge("turn", "mm-badge mm-badge-turn", "to move", toMove),
      {
        ...badge("last", "mm-badge mm-badge-last", "just played", justPlayed),
        // Beside "to move" its words go to a screen reader only (set here, not found by a
        // :has() rule, which every badge shown or hidden in the players' region would test).
        patch: (node) => {
          if (node.hidden === justPlayed) node.hidden = !justPlayed;
          if (node.classList.contains("mm-badge-quiet") !== (justPlayed && toMove)) node.classList.toggle("mm-badge-quiet", justPlayed && toMove);
        },
      },
    ]),
    badge("winner", "mm-badge", "winner", (view.winners || []).includes(s) && view.phase === "over"),
    p.mamma_mia || view.mamma_mia_card === s
      ? fixed("mm", () => el(doc, "span", { class: "mm-mm-chip", dataset: { card: "mamma-mia" }, title: "The Mamma Mia card: its holder empties the oven" }, "Mamma Mia!"))
      : null,
  ];
}

/** A seat's facts set in place: three numbers and the widths of two rows of backs. */
function setSeatFacts(node, p, colour) {
  const hi = p.hand_ingredients ?? 0;
  const ho = p.hand_orders ?? 0;
  const [waiter, delivered, hand] = node.children;
  setText(waiter.lastChild, String(p.waiter ?? 0));
  setText(delivered.lastChild, String(p.delivered ?? 0));
  setTip(hand, handTip(hi, ho));
  const [count, ingredients, , orders] = hand.children;
  setText(count, `${hi}+${ho}`);
  const backs = (row, n, c) => {
    if (row.dataset.count !== String(n)) row.dataset.count = String(n);
    const cls = backsClass(row.dataset.back, n, c);
    if (row.className !== cls) row.className = cls;
  };
  backs(ingredients, hi, undefined);
  backs(orders, ho, colour);
}

/** The words under the pointer on a seat's hand count. */
function handTip(hi, ho) {
  return `${hi} ingredient cards and ${ho} order cards in hand`;
}

// One line of facts per seat: six seats fit the players' region.
function seatFacts(doc, p, colour) {
  const hi = p.hand_ingredients ?? 0;
  const ho = p.hand_orders ?? 0;
  return el(doc, "div", { class: "mm-seat-facts" },
    el(doc, "span", { class: "mm-waiter" }, "waiter ", el(doc, "b", {}, String(p.waiter ?? 0))),
    el(doc, "span", { class: "mm-delivered" }, "delivered ", el(doc, "b", {}, String(p.delivered ?? 0))),
    el(doc, "span", { class: "mm-hand-size", dataset: { tip: handTip(hi, ho) } },
      "hand ", el(doc, "b", {}, `${hi}+${ho}`), backsRow(doc, hi, "ingredient"), el(doc, "span", { class: "mm-gap" }), backsRow(doc, ho, "order", colour)),
  );
}

export function seatsItems(doc, view, ctx, played = null) {
  const players = seatPlayers(view);
  const seats = [];
  for (let s = 0; s < seatCount(view); s++) {
    const p = players[s] || {};
    const colour = p.colour || (view.colours || [])[s];
    const toMove = view.to_move === s && view.phase !== "over";
    const justPlayed = !!played && played.seat === s;
    const cls = ["mm-seat", colourClass(colour), toMove ? "mm-to-move" : null, justPlayed ? "mm-just-moved" : null].filter(Boolean).join(" ");
    // A seat is two lines set in place: a turn passing on hides one badge, shows another and
    // sets the numbers of one seat's facts.
    // What the seat is drawn from: a turn passing on changes two or three seats, and the
    // others are not gone through.
    // Its two lines are set apart: the turn passing on changes the name line, a card played
    // the facts.
    const nameFrom = [colour, seatName(view, ctx, s), (view.personal || [])[s], !!ctx && ctx.seat === s, toMove, justPlayed,
      (view.winners || []).includes(s) && view.phase === "over", !!(p.mamma_mia || view.mamma_mia_card === s)];
    const factsFrom = [colour, p.hand_ingredients, p.hand_orders, p.waiter, p.delivered];
    seats.push({
      key: s,
      build: () => el(doc, "div", { class: cls, dataset: { seat: String(s) } }),
      update: whenChanged([cls, ...nameFrom, ...factsFrom], (node) => {
        if (node.className !== cls) node.className = cls;
        const name = shell("name", () => el(doc, "div", { class: "mm-seat-name" }), () => seatNameItems(doc, view, ctx, played, s, p, colour));
        reconcile(node, [
          { ...name, update: whenChanged(nameFrom, name.update) },
          { key: "facts", build: () => seatFacts(doc, p, colour), update: whenChanged(factsFrom, (facts) => setSeatFacts(facts, p, colour)) },
        ]);
      }),
    });
  }
  return [
    shell("seats", () => el(doc, "div", { class: "mm-section" }), [
      fixed("head", () => el(doc, "h4", {}, "Players")),
      shell("box", () => el(doc, "div", { class: "mm-seats" }), seats),
    ]),
  ];
}

export function drawSeats(doc, view, ctx, played = null) {
  return drawn(doc, seatsItems(doc, view, ctx, played))[0];
}

function handOf(view, seat) {
  if (view.hands && Array.isArray(view.hands)) return view.hands[seat] || null;
  if (view.hands && typeof view.hands === "object") return view.hands[seat] || view.hands[String(seat)] || null;
  return null;
}

/**
 * The viewing seat's own hand as cards (buttons when composing a turn); in the all-seeing
 * view every hand, labelled with the view's name in the View menu (as MammuZ's).
 */
export function handsItems(doc, view, ctx, composer) {
  const seat = ctx ? ctx.seat : null;
  const section = (teaching) => () => el(doc, "div", { class: `mm-section mm-hand${teaching ? " mm-teaching" : ""}`, tabindex: 0, role: "region", "aria-label": "hands" });
  if (seat === null || seat === undefined) {
    if (!view.hands) return [];
    const items = [fixed("head", () => el(doc, "h4", {}, "Every hand (all-seeing view: no player sees this)"))];
    for (let s = 0; s < seatCount(view); s++) {
      const hand = handOf(view, s);
      if (!hand) continue;
      const colour = (view.colours || [])[s];
      const name = seatName(view, ctx, s);
      items.push({
        key: `owner${s}`,
        sig: J([colour, name]),
        build: () => el(doc, "div", { class: "mm-hand-owner", dataset: { seat: String(s) } }, seatDot(doc, colour), name),
      });
      items.push(handCardsItem(doc, view, hand, s, s === view.to_move ? composer : null, true));
    }
    return [shell("teaching", section(true), items)];
  }
  const hand = view.hand || handOf(view, seat);
  if (!hand) return [];
  const title = `Your hand (${seatName(view, ctx, seat)})`;
  return [
    shell(`seat${seat}`, section(false), [
      { key: "head", sig: title, build: () => el(doc, "h4", {}, title) },
      handCardsItem(doc, view, hand, seat, composer),
    ]),
  ];
}

export function drawHands(doc, view, ctx, composer) {
  return drawn(doc, handsItems(doc, view, ctx, composer))[0] || null;
}

function handGroup(doc, kind, n, composer, small = false) {
  // A fanned pile's width follows its count (--n); a row of small cards sizes a pile by its
  // content, and a count set there would restyle the pile's card, icon and name for nothing.
  const group = el(doc, "div", { class: "mm-hand-group", dataset: { kind }, style: small ? null : { "--n": String(n) } });
  // A row of small cards shows a pile as its top card and count (the cards under it are not
  // drawn): only a pile to choose from needs a card for each count.
  const cards = small && !composer ? 1 : n;
  for (let i = 1; i <= cards; i++) {
    // A small card shows its icon and count, not its name (its label says it).
    const opts = { nameless: small };
    if (composer) {
      opts.button = true;
      opts.pressed = composer.sel.kind === kind && i <= composer.sel.count;
      opts.title = `put ${i} ${kindLabel(kind, i)} into the oven`;
    }
    const card = ingredientCard(kind, opts, doc);
    if (composer) {
      card.dataset.action = "ingredient";
      card.dataset.count = String(i);
      if (!composer.canIngredient(kind, i)) card.disabled = true;
    }
    group.append(card);
  }
  if (n > 1) group.firstChild.append(el(doc, "span", { class: "mm-count", "aria-hidden": "true", dataset: { n: String(n) } }));
  return group;
}

function handOrder(doc, view, order, index, composer, small = false) {
  const opts = { edition: view.edition, small };
  if (composer) {
    opts.button = true;
    opts.pressed = composer.sel.order === index;
  }
  const card = orderCard(order, opts, doc);
  card.dataset.index = String(index);
  if (composer) {
    card.dataset.action = "order";
    if (!composer.canOrder(index)) card.disabled = true;
  }
  return el(doc, "div", { class: "mm-hand-order" }, card);
}

/** One seat's cards: a group per kind (fanned), then the order cards, each its own item. */
function handCardsItem(doc, view, hand, seat, composer, small = false) {
  const build = () => el(doc, "div", { class: "mm-hand-cards", dataset: { seat: String(seat) }, tabindex: 0, role: "group", "aria-label": `${seatName(view, null, seat)}'s cards` });
  const row = shell(`cards${seat}`, build, () => {
    const items = [];
    const ingredients = hand.ingredients || {};
    for (const kind of view.kinds || Object.keys(ingredients)) {
      const n = ingredients[kind] || 0;
      if (!n) continue;
      const choice = composer
        ? [composer.sel.kind === kind ? composer.sel.count : 0, Array.from({ length: n }, (_, i) => composer.canIngredient(kind, i + 1))]
        : null;
      items.push({ key: `k:${kind}`, sig: J([n, choice]), build: () => handGroup(doc, kind, n, composer, small) });
    }
    // An order card keeps its node while the orders before it leave the hand: it is keyed by
    // what it is (its label, and which of equal ones), and only its index is set again.
    const seen = new Map();
    (hand.orders || []).forEach((order, index) => {
      const name = order.label || orderText(order, view.edition);
      const nth = (seen.get(name) || 0) + 1;
      seen.set(name, nth);
      const choice = composer ? [composer.sel.order === index, composer.canOrder(index)] : null;
      items.push({
        key: `o:${nth}:${name}`,
        sig: J([order, view.edition, choice]),
        build: () => handOrder(doc, view, order, index, composer, small),
        patch: (node) => {
          const card = node.firstElementChild;
          if (card && card.dataset.index !== String(index)) card.dataset.index = String(index);
        },
      });
    });
    if (!items.length) items.push(fixed("none", () => el(doc, "span", { class: "mm-muted" }, "(no cards)")));
    return items;
  });
  // A row not being chosen from is gone through only when its hand changed: a turn in the
  // all-seeing view changes the mover's row, not the five others.
  return { ...row, update: whenChanged(composer ? null : [hand, view.kinds, view.edition], row.update) };
}

/** The evaluation: revealed cards so far, the current order and how it is settled. */
export function evaluationItems(doc, view, ctx) {
  const ev = view.evaluation;
  if (!ev) return [];
  const items = () => {
    // One line in a narrow table: the status line above already says the oven is being emptied,
    // and the oven its count of cards left (the heading keeps its words while the cards come).
    const head = `${seatName(view, ctx, ev.emptier)} empties the oven, card by card`;
    const cards = ev.revealed || [];
    // Only the last few revealed cards: the rest are already sorted into the table's columns.
    const from = Math.max(0, cards.length - 8);
    const revealed = cards.slice(from).map((card, i) => {
      return {
        key: from + i,
        sig: J([card, view.edition]),
        build: () => {
          const isOrder = card.type === "order" || card.order_type || card.recipe !== undefined;
          return isOrder ? orderSpine(orderOf(card), view.edition, doc) : ingredientCard(card.kind, { small: true }, doc);
        },
      };
    });
    const order = ev.order;
    return [
      textItem("head", () => el(doc, "h4"), head),
      shell("row", () => el(doc, "div", { class: "mm-eval" }), [
        shell("revealed", () => el(doc, "div", { class: "mm-revealed", "aria-label": "revealed cards", role: "group" }), revealed),
        order ? settlementItem(doc, view, ctx, order) : null,
      ]),
    ];
  };
  // Drawn again only when what it shows changed: a round of asking for help changes the
  // decision alone, and leaves the revealed cards and the order being settled as they are.
  const drawnFrom = [writeOut(NAMES(view, ctx)), ev.emptier, ev.revealed, ev.order, view.edition, view.kinds, view.colours];
  const box = shell("eval", () => el(doc, "div", { class: "mm-section mm-eval-box" }), items);
  const deciding = decidesHere(view, ctx);
  return [{
    ...box,
    update: whenChanged(drawnFrom, box.update),
    patch: (node) => {
      node.classList.toggle("mm-deciding", deciding); // as asked already: the attribute is not touched
    },
  }];
}

export function drawEvaluation(doc, view, ctx) {
  return drawn(doc, evaluationItems(doc, view, ctx))[0] || null;
}

/** A revealed order card in order-card shape (its own `type` may be shadowed by "order"). */
export function orderOf(card) {
  if (!card) return card;
  if (card.order_type) return { ...card, type: card.order_type };
  return card;
}

/** The order being settled: its card, what it needs and where its cards come from, and its
 * result, each part redrawn when its own inputs change. */
function settlementItem(doc, view, ctx, order) {
  const o = orderOf(order);
  const owner = `${seatName(view, ctx, o.owner)}'s order`;
  const line = (label, counts, cls) => {
    if (!counts || !Object.values(counts).some(Boolean)) return null;
    return {
      key: cls,
      sig: J([label, counts, view.kinds]),
      build: () => {
        const node = el(doc, "div", { class: `mm-settle-line ${cls}` }, el(doc, "span", {}, label));
        for (const kind of view.kinds || Object.keys(counts)) {
          if (counts[kind]) node.append(ingredientIcon(kind, doc), `${counts[kind]}`);
        }
        return node;
      },
    };
  };
  const result = o.result ? (o.result === "made" ? "Made!" : o.result === "sent back" ? `Sent back under ${seatName(view, ctx, o.owner)}'s waiter.` : String(o.result)) : null;
  // What the card shows (orderCard draws from these alone).
  const face = J([o.colour, o.name, o.type, o.recipe, o.crossed, o.fixed, o.choices, view.edition]);
  return shell("settle", () => el(doc, "div", { class: "mm-settle", "aria-label": "the order being settled" }), [
    { key: "owner", build: () => el(doc, "div", {}, el(doc, "b")), update: (node) => {
      setText(node.firstChild, owner);
    } },
    { key: "card", sig: face, build: () => orderCard(o, { mark: "mm-current", edition: view.edition }, doc) },
    line("needs:", o.needs, "mm-needs"),
    line("from the table:", o.from_table, "mm-line-table"),
    line(`from ${seatName(view, ctx, o.owner)}'s hand:`, o.from_hand, "mm-line-hand"),
    line(o.helper !== null && o.helper !== undefined ? `from ${seatName(view, ctx, o.helper)}'s hand (help):` : "from a helper:", o.from_helper, "mm-line-helper"),
    result ? { key: "result", sig: result, build: () => el(doc, "div", { class: "mm-result" }, result) } : null,
  ]);
}

function legalList(ctx) {
  return (ctx && Array.isArray(ctx.legal) ? ctx.legal : []).filter((a) => typeof a === "string");
}

/** Whether the evaluation waits for a decision of the seat viewed (any seat's, all-seeing). */
function decidesHere(view, ctx) {
  const decision = view.evaluation && view.evaluation.decision;
  return !!decision && !!ctx && !!ctx.interactive && (ctx.seat === null || ctx.seat === undefined || ctx.seat === decision.seat);
}

/** The dialog of an evaluation decision, for the seat that must answer: the question and the
 * line under it set in place (a round of asking for help changes their words only). */
export function decisionItem(doc, view, ctx) {
  const ev = view.evaluation;
  const decision = ev && ev.decision;
  if (!decision) return null;
  const mine = decidesHere(view, ctx);
  const role = mine ? "dialog" : "status";
  const deciderDot = dotClass((view.colours || [])[decision.seat]);
  // The engine words the question for this view: "you" to the seat that decides, the seat's
  // name to everybody else.
  const question = ` ${decision.question}`;
  const items = [
    {
      key: "q",
      build: () => el(doc, "div", { class: "mm-decision-q" }, seatDot(doc, (view.colours || [])[decision.seat]), question),
      update: (node) => {
        const dot = node.firstChild;
        if (dot.className !== deciderDot) dot.className = deciderDot;
        if (node.lastChild.nodeValue !== question) node.lastChild.nodeValue = question;
      },
    },
  ];
  if (!mine) {
    items.push(textItem("waiting", () => el(doc, "div", { class: "mm-muted" }), `Waiting for ${seatName(view, ctx, decision.seat)} to answer.`));
  } else {
    // One row per kind of answer (make / ask for help / the rest): a Ciottona can offer dozens.
    const rows = new Map();
    for (const notation of legalList(ctx)) {
      const action = parseAction(notation);
      const group = action.type === "make" || action.type === "ask" ? action.type : "other";
      if (!rows.has(group)) rows.set(group, []);
      rows.get(group).push([notation, describeAction(action, view, ctx)]);
    }
    const heading = { make: "Make it:", ask: "Ask for help:" };
    // Sending the order back (or refusing) comes before the asks: a long list of helpers to
    // ask would otherwise put it out of sight, a scroll of thousands of pixels away.
    for (const group of ["make", "other", "ask"]) {
      const answers = rows.get(group);
      if (!answers) continue;
      items.push({
        key: group,
        sig: J(answers),
        // A lone answer says what it does itself ("Make it, adding…"): no heading over it.
        build: () => el(doc, "div", { class: "mm-decision-answers", dataset: { group } }, heading[group] && answers.length > 1 ? el(doc, "span", { class: "mm-muted" }, heading[group]) : null,
          answers.map(([notation, label]) => el(doc, "button", { type: "button", dataset: { action: "play", notation }, title: notation }, label))),
      });
    }
    items.push({ key: "more", build: () => el(doc, "div", { class: "mm-decision-more", "aria-hidden": "true" }, el(doc, "span", {}, "More answers below \u25BE")) });
  }
  return {
    ...shell("decision", () => el(doc, "div", { class: "mm-decision", role, "aria-label": "decision" }), items),
    patch: (node) => {
      if (node.getAttribute("role") !== role) node.setAttribute("role", role);
    },
  };
}

export function drawDecision(doc, view, ctx) {
  const item = decisionItem(doc, view, ctx);
  return item ? drawn(doc, [item])[0] : null;
}

// ----------------------------------------------------------------------------------------
// The turn composer: the legal turns parsed once, the user's selection checked against them.

export function makeComposer(legal, sel, hand) {
  const labels = ((hand && hand.orders) || []).map((o) => o.label);
  const turns = [];
  const others = [];
  for (const notation of legal) {
    const a = parseAction(notation);
    if (a.type === "turn") turns.push(a);
    else others.push({ notation, action: a });
  }
  const orderLabel = (index) => (index === null ? null : labels[index]);
  // `source` undefined: not chosen yet; null: no draw.
  const fits = (t, s) =>
    (s.kind === null || t.kind === s.kind) &&
    (s.count === 0 || t.count === s.count) &&
    (s.order === null || t.order === orderLabel(s.order)) &&
    (s.source === undefined || t.source === s.source);
  const same = (t, s) => t.kind === s.kind && t.count === s.count && t.order === orderLabel(s.order);
  const composer = {
    sel,
    turns,
    others,
    canIngredient: (kind, count) => turns.some((t) => fits(t, { ...sel, kind, count })),
    canOrder: (index) => turns.some((t) => fits(t, { ...sel, order: index })),
    canSource: (source) => turns.some((t) => fits(t, { ...sel, source })),
    /** The draw sources offered for the cards chosen so far (null: no draw). */
    sources: () => [...new Set(turns.filter((t) => fits(t, { ...sel, source: undefined })).map((t) => t.source))],
    /** With optional actions, the shorter draws allowed from the chosen source. */
    draws: () =>
      [...new Set(turns.filter((t) => same(t, sel) && t.source === sel.source && t.draw !== null).map((t) => t.draw))].sort((a, b) => a - b),
    needsIngredient: () => turns.length > 0 && turns.every((t) => t.kind !== null),
    /** The notation of the selected turn, or null when the selection is not a legal turn. */
    chosen: () => {
      const matching = turns.filter((t) => same(t, sel));
      let source = sel.source;
      if (source === undefined) {
        // Nothing to choose when the only legal way is not to draw (a full hand).
        const sources = new Set(matching.map((t) => t.source));
        if (sources.size === 1 && sources.has(null)) source = null;
        else return null;
      }
      const t = matching.find((t) => t.source === source && t.draw === (sel.draw ?? null));
      return t ? t.notation : null;
    },
  };
  return composer;
}

function drawComposer(doc, view, ctx, composer) {
  const box = el(doc, "div", { class: "mm-section mm-composer" }, el(doc, "h4", {}, "Your turn"));
  const controls = el(doc, "div", { class: "mm-controls" });
  const sel = composer.sel;
  if (composer.turns.length) {
    const what = [];
    if (sel.kind) what.push(`${sel.count} ${kindLabel(sel.kind, sel.count)}`);
    else what.push(composer.needsIngredient() ? "choose ingredient cards of one kind in your hand" : "no ingredient");
    if (sel.order !== null) {
      const order = (((view.hand || handOf(view, view.to_move)) || {}).orders || [])[sel.order];
      what.push(order ? `the order ${orderName(order)}` : "an order");
    }
    controls.append(el(doc, "span", { class: "mm-composed" }, `Into the oven: ${what.join(" + ")}.`));
    const labels = { supply: "Draw from the supply", waiter: "Draw from my waiter" };
    const sources = composer.sources();
    for (const source of sources) {
      if (source === null && sources.length === 1) continue; // a full hand: nothing to choose
      controls.append(
        el(
          doc,
          "button",
          { type: "button", dataset: { action: "source", source: source === null ? "none" : source }, "aria-pressed": String(sel.source === source), disabled: !composer.canSource(source) },
          source === null ? "Don't draw" : labels[source] || `Draw: ${source}`,
        ),
      );
    }
    const draws = sel.source ? composer.draws() : [];
    if (draws.length) {
      const select = el(doc, "select", { class: "mm-draw-count", "aria-label": "how many cards to draw", dataset: { action: "draw" } });
      select.append(el(doc, "option", { value: "" }, "up to the hand limit"));
      for (const n of draws) select.append(el(doc, "option", { value: String(n), selected: sel.draw === n }, `only ${n}`));
      controls.append(select);
    }
    const notation = composer.chosen();
    controls.append(el(doc, "button", { type: "button", class: "mm-play", dataset: { action: "play-turn" }, disabled: !notation, title: notation || "choose a legal turn" }, "Play turn"));
    controls.append(el(doc, "button", { type: "button", dataset: { action: "clear" } }, "Clear"));
  }
  box.append(controls);
  if (composer.others.length) {
    const extra = el(doc, "div", { class: "mm-controls mm-other-actions" });
    for (const { notation, action } of composer.others) {
      extra.append(el(doc, "button", { type: "button", dataset: { action: "play", notation }, title: notation }, describeAction(action, view, ctx)));
    }
    box.append(extra);
  }
  return box;
}

/** How the table marks the order being settled: wanted cards, or the cards a made pizza used. */
export function tableMarks(view, ctx) {
  const order = view.evaluation && view.evaluation.order;
  if (!order) return {};
  if (order.result === "made") {
    const owner = seatName(view, ctx, order.owner);
    const helper = order.helper !== null && order.helper !== undefined ? seatName(view, ctx, order.helper) : "the helper";
    return {
      gone: [
        { counts: order.from_table || {}, mark: "mm-taken", label: "taken from the table", legend: "from the table" },
        { counts: order.from_hand || {}, mark: "mm-from-hand", label: `added from ${owner}'s hand`, legend: `from ${owner}'s hand` },
        { counts: order.from_helper || {}, mark: "mm-from-helper", label: `given by ${helper}`, legend: `given by ${helper}` },
      ],
    };
  }
  if (order.result) return {};
  return { wanted: order.needs || {} };
}

// ----------------------------------------------------------------------------------------

/** Each card of a fanned row as the CSS lays it out: its flex basis, its minimum width and the
 * width at or under which the next card covers it (null: drawn the same either way). */
function fanItem(node) {
  const cls = node.classList;
  if (cls.contains("mm-hand-group")) {
    const basis = 72 + ((Number(node.style.getPropertyValue("--n")) || 1) - 1) * 30;
    return { basis, min: 28, cover: basis - 1 };
  }
  if (cls.contains("mm-hand-order")) return { basis: 150, min: 20, cover: 140 };
  return { basis: 0, min: 0, cover: null };
}

/** Mark the cards of a seat's fanned hand that the next card covers (`mm-covered`), from the
 * row's width kept by the ResizeObserver: no layout is read. The last card gives up width only
 * once the others are down to their edges. */
function fanRow(row) {
  const width = row._twWidth;
  if (width === undefined) return;
  const nodes = row.children;
  const items = [];
  for (let i = 0; i < nodes.length; i++) {
    const item = fanItem(nodes[i]);
    item.shrink = i < nodes.length - 1 ? 1000 : 1;
    items.push(item);
  }
  const sizes = shrinkToFit(width, items, 2);
  for (let i = 0; i < nodes.length; i++) {
    const { cover } = items[i];
    nodes[i].classList.toggle("mm-covered", cover !== null && sizes[i] <= cover + 0.01);
  }
}

// The all-seeing view's rows of small cards fan by their content and need no marks.
const FAN_ROWS = ".mm-hand:not(.mm-teaching) > .mm-hand-cards";
// The items of every fanned row, the all-seeing view's included: the keyboard's focus brings one
// forward.
const FOCUS_ITEMS = ".mm-hand-cards > *";

// A revealed card comes from the oven, up and to the left of where it lands.
const FLIGHT = [{ transform: "translate(-60px, -40px) scale(0.6)", opacity: 0.2 }, { transform: "none", opacity: 1 }];
const FLIGHT_TIMING = { duration: 450, easing: "ease-out" };

const EMPTY_SEL = () => ({ kind: null, count: 0, order: null, source: undefined, draw: null });

export function mount(boardEl, ctx) {
  const doc = boardEl.ownerDocument || globalThis.document;
  const root = el(doc, "div", { class: "mm-root" });
  // Fixed regions: the table keeps one footprint whatever the frame holds; what can grow (the
  // oven's log, the hands, the seats) scrolls or compresses inside its own region.
  const slot = (cls, label) => el(doc, "div", { class: `mm-slot ${cls}`, ...(label ? { tabindex: 0, role: "region", "aria-label": label } : {}) });
  const slots = {
    status: slot("mm-slot-status"),
    oven: slot("mm-slot-oven"),
    seats: slot("mm-slot-seats", "players"),
    table: slot("mm-slot-table"),
    middle: slot("mm-slot-middle", "the oven being emptied, or the last turn"),
    hand: slot("mm-slot-hand"),
  };
  root.append(
    el(doc, "div", { class: "mm-top" }, slots.status),
    el(doc, "div", { class: "mm-left" }, slots.oven, slots.seats),
    el(doc, "div", { class: "mm-right" }, slots.table, slots.middle, slots.hand),
  );
  boardEl.append(root);
  let current = { frame: null, prev: null, ctx };
  const pace = paceWatch();
  let sel = EMPTY_SEL();
  let selKey = null;
  let composer = null;
  let lockedUntil = 0;
  let localTally = null; // the replay's own switch: no model keeps `settings` there
  const tallyShown = (c) => {
    if (c.live === false && localTally !== null) return localTally;
    // Live, the model's settings are read now: a switch set a moment ago counts at once.
    const settings = c.model && typeof c.model.get === "function" ? c.model.get("settings") : c.settings;
    return !!((settings || c.settings || {}).tally);
  };
  // What each region was drawn from: a region whose inputs did not change keeps its nodes, so
  // stepping through a timeline touches only what the frame changed.
  const drawnKeys = {};
  function fill(name, parts, items) {
    if (sameParts(drawnKeys[name], parts)) return false;
    drawnKeys[name] = parts;
    reconcile(slots[name], items());
    return true;
  }
  // The fanned rows' widths, kept as the page lays them out (their cards' covers follow).
  const fans = widthWatcher(fanRow);
  function fanRows(rows) {
    for (const row of rows) {
      fans.watch(row);
      fanRow(row);
    }
  }

  function render(force = false, paced = false) {
    const { frame, prev } = current;
    const c = current.ctx || {};
    if (force) for (const name of Object.keys(drawnKeys)) delete drawnKeys[name];
    if (!frame || !frame.view) {
      for (const name of Object.keys(slots)) fill(name, [], () => []);
      return;
    }
    const view = frame.view;
    root.classList.toggle("mm-evaluating", !!view.evaluation);
    const key = `${frame.step}:${(c.legal || []).join("|")}`;
    if (key !== selKey) {
      // A new position or new legal actions: an old half-made selection no longer applies.
      sel = EMPTY_SEL();
      selKey = key;
    }
    // A card flies only when revealed by stepping forward one sub-step within the same action,
    // at a pace a move can be followed at (`paced`: not a scrub).
    const forward = paced && !!(prev && frame.kind === "reveal" && prev.step === frame.step && prev.sub === frame.sub - 1);
    const names = NAMES(view, c);
    const played = lastPlayed(frame);
    const tally = tallyShown(c);

    // What each region is drawn from: the view's own parts as they are, what is derived
    // from them written out (small).
    const nameKey = writeOut(names);
    const playedKey = J(played);
    fill("status", [nameKey, view.edition, view.oven_number, view.ovens, view.phase, view.winners, view.to_move,
      view.evaluation && view.evaluation.decision && view.evaluation.decision.seat], () => statusItems(doc, view, c));
    fill("oven", [nameKey, view.supply, view.mamma_mia_card, view.oven, view.colours, view.phase, view.kinds, tally,
      view.evaluation && (view.evaluation.revealed || []).length, playedKey],
      () => supplyAndOvenItems(doc, view, c, { ...(c.settings || {}), tally }, played));
    const marks = tableMarks(view, c);
    fill("table", [view.table, view.kinds, J(marks)], () => tableItems(doc, view, marks));

    const legal = legalList(c);
    composer = null;
    if (c.interactive && view.phase === "turn" && legal.length && !(view.evaluation && view.evaluation.decision)) {
      composer = makeComposer(legal, sel, view.hand || handOf(view, view.to_move));
    }
    const legalKey = J(legal);
    fill("middle", [nameKey, c.seat, c.interactive, legalKey, view.evaluation, view.colours, view.edition, view.kinds,
      playedKey, frame.kind], () => {

      return [
        decisionItem(doc, view, c),
        ...evaluationItems(doc, view, c),
        view.evaluation ? null : lastTurnItem(doc, view, c, frame),
      ];
    });
    fill("seats", [nameKey, c.seat, view.players, view.colours, view.personal, view.to_move, view.phase, view.winners,
      view.mamma_mia_card, played && played.seat], () => seatsItems(doc, view, c, played));
    // The seat to move matters to the hands only while a turn is being composed (its cards are
    // the ones to choose): otherwise a turn passing on leaves the hands as they are.
    const hand = fill("hand", [nameKey, c.seat, view.hand, view.hands, view.kinds, view.edition, composer && view.to_move, legalKey,
      c.interactive, composer && J(sel)], () => [
      ...handsItems(doc, view, c, composer),
      composer ? { key: "composer", sig: J([sel, legal, names, view.hand, view.hands, view.to_move]), build: () => drawComposer(doc, view, c, composer) } : null,
    ]);
    if (hand) fanRows(slots.hand.querySelectorAll(FAN_ROWS));
    if (forward) flyRevealed(frame, view);
  }

  /** The card just revealed flies into the strip, and its ingredients onto their column. */
  function flyRevealed(frame, view) {
    animateNode(slots.middle.querySelector(".mm-revealed > :last-child"), FLIGHT, FLIGHT_TIMING);
    const kind = frame.data && frame.data.kind;
    if (!kind) return;
    const n = (view.table || {})[kind] || 0;
    const stack = slots.table.querySelector(`.mm-column[data-kind="${kind}"] .mm-column-stack`);
    // A column holds its cards bottom to top, then a made pizza's ghosts: the cards just come
    // are the last `count` of the first n.
    for (let i = Math.max(0, n - (frame.data.count || 1)); stack && i < n; i++) animateNode(stack.children[i], FLIGHT, FLIGHT_TIMING);
  }

  function onClick(event) {
    const target = event.target.closest ? event.target.closest("[data-action]") : null;
    if (!target || !root.contains(target) || target.disabled) return;
    const c = current.ctx || {};
    const action = target.dataset.action;
    if (action === "tally") {
      // A display switch: drawn here at once from the public log; the widget's `settings`
      // remember it (no frame changes, so nothing waits for the kernel).
      const on = !tallyShown(c);
      const model = c.model;
      if (c.live !== false && model && typeof model.set === "function") {
        model.set("settings", { ...(model.get("settings") || {}), tally: on });
        if (typeof model.save_changes === "function") model.save_changes();
      } else {
        localTally = on;
      }
      render();
      return;
    }
    if (action === "play" || action === "play-turn") {
      // One action per click: a double click would otherwise send the same step twice, and
      // the second would rewind the match to replay it.
      if (Date.now() < lockedUntil) return;
      const notation = action === "play" ? target.dataset.notation : composer && composer.chosen();
      if (notation && c.play && c.play(notation) !== false) {
        lockedUntil = Date.now() + 1500;
        // Drawn with the answer (the timeline's update), which comes within milliseconds:
        // drawing the cleared choice now would keep the page busy while it is on its way.
        sel = EMPTY_SEL();
      }
      return;
    }
    if (!composer) return;
    if (action === "ingredient") {
      const kind = target.dataset.kind;
      const count = Number(target.dataset.count);
      if (sel.kind === kind && sel.count === count) sel = { ...sel, kind: null, count: 0 };
      else sel = { ...sel, kind, count };
    } else if (action === "order") {
      const index = Number(target.dataset.index);
      sel = { ...sel, order: sel.order === index ? null : index };
    } else if (action === "source") {
      const source = target.dataset.source === "none" ? null : target.dataset.source;
      sel = { ...sel, source: sel.source === source ? undefined : source, draw: null };
    } else if (action === "clear") {
      sel = EMPTY_SEL();
    }
    render();
  }

  function onChange(event) {
    const target = event.target;
    if (!composer || !target || !target.dataset || target.dataset.action !== "draw") return;
    sel = { ...sel, draw: target.value === "" ? null : Number(target.value) };
    render();
  }

  // A covered card of a fanned row comes forward while the keyboard's focus is in it: its row's
  // item is marked here rather than by a :has(:focus-visible) rule, which every card built or
  // removed in the table would test.
  function onFocus(event) {
    const item = event.target.closest ? event.target.closest(FOCUS_ITEMS) : null;
    if (!item) return;
    item.classList.toggle("mm-focus", event.type === "focusin" && event.target.matches(":focus-visible"));
  }

  root.addEventListener("click", onClick);
  root.addEventListener("change", onChange);
  root.addEventListener("focusin", onFocus);
  root.addEventListener("focusout", onFocus);
  const stopTips = showTips(root);
  return {
    update(frame, prev, ctx2) {
      if (current.frame && frame && (frame.step !== current.frame.step || frame.sub !== current.frame.sub)) lockedUntil = 0;
      current = { frame, prev, ctx: ctx2 || current.ctx };
      render(false, pace());
    },
    destroy() {
      root.removeEventListener("click", onClick);
      root.removeEventListener("change", onChange);
      root.removeEventListener("focusin", onFocus);
      root.removeEventListener("focusout", onFocus);
      stopTips();
      fans.disconnect();
      root.remove();
    },
  };
}

export const renderer = { name: "mamma-mia", css: `${css}\n${BACKS_CSS}\n${COLOUR_CSS}\n${ICON_CSS}`, mount };
export default createGameWidget(renderer);
