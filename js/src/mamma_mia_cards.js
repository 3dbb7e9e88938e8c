// Mamma Mia! cards drawn in SVG and CSS: ingredient cards, order cards, card backs and the
// Mamma Mia card. Pure: every function returns new DOM nodes made from its arguments alone (no
// image downloads; a card drawn before is cloned from the one first built for the same arguments). Each ingredient is told apart by its icon AND its colour,
// and every card also carries its name in text (title/aria-label) for readers and screen readers.

import { cloned, docOf, el, setText, setTip } from "./dom.js";

const SVG_NS = "http://www.w3.org/2000/svg";

// The seat colours of both editions; each ingredient takes the colour of the seat whose
// personal ingredient it is (yellow–pineapple, green–pepper, brown–mushroom, purple–olive,
// red–salami, pink–shrimp), so a pizza's colour and its key ingredient match on the table.
export const SEAT_COLOURS = {
  yellow: "#e3b505",
  green: "#2e9d46",
  brown: "#8b5a2b",
  purple: "#7b4fa0",
  red: "#c8372d",
  pink: "#e0608f",
};

export const KINDS = {
  salami: { label: "Salami", plural: "salami", colour: SEAT_COLOURS.red, short: "SAL" },
  pineapple: { label: "Pineapple", face: "Pine\u00adapple", plural: "pineapples", colour: SEAT_COLOURS.yellow, short: "PIN" },
  mushroom: { label: "Mushroom", face: "Mush\u00adroom", plural: "mushrooms", colour: SEAT_COLOURS.brown, short: "MUS" },
  pepper: { label: "Pepper", plural: "peppers", colour: SEAT_COLOURS.green, short: "PEP" },
  olive: { label: "Olive", plural: "olives", colour: SEAT_COLOURS.purple, short: "OLI" },
  shrimp: { label: "Shrimp", plural: "shrimp", colour: SEAT_COLOURS.pink, short: "SHR" },
};

/** Each colour's personal ingredient (both editions). */
export const PERSONAL = {
  yellow: "pineapple",
  green: "pepper",
  brown: "mushroom",
  purple: "olive",
  red: "salami",
  pink: "shrimp",
};

export const ORDER_TYPES = {
  normal: "Normale",
  bombastica: "Bombastica",
  monotoni: "Monotoni",
  minimale: "Minimale",
  ciottona: "Ciottona",
  small_monotoni: "Small Monotoni",
  mini: "Mini pizza",
  pizza_mamma_mia: "Pizza Mamma Mia",
};

// Icons on a 24×24 grid. Shapes differ by kind (round slice, crowned fruit, cap and stem,
// lobed pepper, stuffed oval, curled shrimp) so they read without colour too.
const ICONS = {
  salami:
    '<circle cx="12" cy="12" r="10" fill="#c8372d" stroke="#6e1a14" stroke-width="1.2"/>' +
    '<circle cx="8" cy="8.5" r="1.6" fill="#f7d9d2"/><circle cx="15" cy="7.5" r="1.2" fill="#f7d9d2"/>' +
    '<circle cx="13" cy="13" r="1.7" fill="#f7d9d2"/><circle cx="7.5" cy="15" r="1.2" fill="#f7d9d2"/>' +
    '<circle cx="16.5" cy="16" r="1.3" fill="#f7d9d2"/>',
  pineapple:
    '<path d="M12 1 L10 6 L7 3.5 L9 8 L15 8 L17 3.5 L14 6 Z" fill="#2e9d46" stroke="#1b5e2a" stroke-width="0.6"/>' +
    '<ellipse cx="12" cy="15" rx="6" ry="7.5" fill="#e3b505" stroke="#8a6a00" stroke-width="1"/>' +
    '<path d="M7 12 L14 20 M8 9.5 L17 18 M10 8 L17.5 14 M7 15.5 L11 21.5 M17 12 L10 20 M16 9.5 L7 18 M14 8 L6.5 14 M17 15.5 L13 21.5" ' +
    'stroke="#8a6a00" stroke-width="0.7" fill="none"/>',
  mushroom:
    '<path d="M9 12 L9 20 Q12 22.5 15 20 L15 12 Z" fill="#f1e3c8" stroke="#6b4a2a" stroke-width="1"/>' +
    '<path d="M2.5 13 Q3 3 12 3 Q21 3 21.5 13 Z" fill="#8b5a2b" stroke="#4a2e14" stroke-width="1"/>' +
    '<circle cx="8" cy="8.5" r="1.4" fill="#e8cfa8"/><circle cx="14.5" cy="6.5" r="1.2" fill="#e8cfa8"/>' +
    '<circle cx="16.5" cy="10.5" r="1.1" fill="#e8cfa8"/>',
  pepper:
    '<path d="M12 5.5 Q12 2.5 14.5 1.5" stroke="#1b5e2a" stroke-width="1.8" fill="none" stroke-linecap="round"/>' +
    '<path d="M12 6 Q5 4 4.5 11 Q4.5 18 8 21.5 Q10 23 12 21 Q14 23 16 21.5 Q19.5 18 19.5 11 Q19 4 12 6 Z" ' +
    'fill="#2e9d46" stroke="#15461f" stroke-width="1"/>' +
    '<path d="M12 7.5 L12 20" stroke="#15461f" stroke-width="0.8"/>' +
    '<path d="M7.5 8.5 Q6.8 12 7.5 16" stroke="#9fdcab" stroke-width="1" fill="none"/>',
  olive:
    '<ellipse cx="12" cy="12" rx="7.5" ry="9.5" fill="#7b4fa0" stroke="#3d2452" stroke-width="1.2" transform="rotate(-20 12 12)"/>' +
    '<ellipse cx="13" cy="10.5" rx="2.6" ry="3.3" fill="#f1e6f7" stroke="#3d2452" stroke-width="0.8" transform="rotate(-20 13 10.5)"/>' +
    '<path d="M8 15.5 Q9 18 11.5 18.5" stroke="#c9b2dc" stroke-width="1" fill="none"/>',
  shrimp:
    '<path d="M17 5 Q22 11 17.5 17 Q13 21.5 7.5 19 L10 15.5 Q13 16.5 15 14 Q17 11 14 8 Z" ' +
    'fill="#e0608f" stroke="#8a2450" stroke-width="1"/>' +
    '<path d="M7.5 19 L3 21.5 L4.5 17 Z" fill="#e0608f" stroke="#8a2450" stroke-width="0.8"/>' +
    '<path d="M16 6.5 L19 8.5 M18.8 10.5 L16 11 M18.2 14 L15.5 13.2 M15 17.5 L13.5 15.5" stroke="#8a2450" stroke-width="0.8"/>' +
    '<circle cx="16.8" cy="6.8" r="0.9" fill="#3a0d20"/>' +
    '<path d="M17.5 5.5 Q14 1.5 9 2.5" stroke="#8a2450" stroke-width="0.7" fill="none"/>',
};

// A joker ("one kind of the owner's choice"): a question mark in a dashed circle.
const JOKER_ICON =
  '<circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" stroke-width="1.4" stroke-dasharray="3 2"/>' +
  '<text x="12" y="17" text-anchor="middle" font-size="14" font-weight="700" fill="currentColor">?</text>';

export function kindLabel(kind, count = 1) {
  const info = KINDS[kind];
  if (!info) return String(kind);
  return count === 1 ? info.label.toLowerCase() : info.plural;
}

export function kindColour(kind) {
  return KINDS[kind] ? KINDS[kind].colour : "#888";
}

export function seatColour(colour) {
  return SEAT_COLOURS[colour] || "#888";
}

const own = (map, key) => Object.prototype.hasOwnProperty.call(map, key);

/** The class that gives an element its seat's colour (`--mm-seat`); grey for no known seat. */
export function colourClass(colour) {
  return own(SEAT_COLOURS, colour) ? `mm-c-${colour}` : "mm-c-none";
}

/** An ingredient card's border and colour band in its kind's colour, written out: a var() in a
 * shorthand is substituted and the whole shorthand parsed again for every card styled, which
 * made a card cost several times what a card of plain colours does to style. */
function ingredientFaceCss(kind, colour) {
  const cls = `.mm-kind-${kind}`;
  return `.mm-card${cls}, .mm-root button.mm-card${cls} { border-color: ${colour}; }
.mm-ing${cls}, .mm-root button.mm-card.mm-ing${cls} {
  background: linear-gradient(${colour}, ${colour}) top / 100% 6px no-repeat padding-box, linear-gradient(#fffaf0, #fffaf0) padding-box, ${colour} border-box; }
.mm-root .mm-teaching .mm-ing${cls} { background: linear-gradient(#fffaf0, #fffaf0) padding-box, ${colour} border-box; }`;
}

/** What a seat's colour paints, written out for the same reason: an order's border, head and
 * back, its spine, the seat's ring and dot, the stripes of its hidden orders. */
function seatFaceCss(colour, hex) {
  const cls = `.mm-c-${colour}`;
  return `.mm-card${cls}, .mm-root button.mm-card${cls}, .mm-seat${cls} { border-color: ${hex}; }
${cls} > .mm-order-head, .mm-dot${cls}, .mm-spine${cls} { background: ${hex}; }
.mm-back-order${cls} { background: repeating-linear-gradient(45deg, ${hex} 0 5px, rgba(255,255,255,0.35) 5px 7px); }
.mm-backs-order${cls} { background: repeating-linear-gradient(90deg, rgba(0,0,0,0.55) 0 1px, ${hex} 1px 6px); border-color: ${hex}; }`;
}

/**
 * The seats' and the kinds' colours, one rule each: a card, a seat or a dot takes its colour
 * from its class. A custom property written in an element's own style makes that element's
 * style its own, computed afresh, where elements of the same classes share theirs.
 */
export const COLOUR_CSS = [
  ...Object.entries({ ...SEAT_COLOURS, none: "#888" }).map(([colour, hex]) => `.mm-c-${colour} { --mm-seat: ${hex}; }\n${seatFaceCss(colour, hex)}`),
  ...Object.entries(KINDS).map(([kind, info]) => `.mm-kind-${kind} { --mm-kind: ${info.colour}; }\n${ingredientFaceCss(kind, info.colour)}`),
  ".mm-kind-none { --mm-kind: #888; }",
  ingredientFaceCss("none", "#888"),
].join("\n");

/** "4 pineapples, 1 pepper" for a {kind: n} mapping, in the given kinds' order. */
export function countsText(counts, kinds = Object.keys(KINDS)) {
  const parts = [];
  for (const kind of kinds) {
    const n = counts && counts[kind];
    if (n) parts.push(`${n} ${kindLabel(kind, n)}`);
  }
  for (const kind of Object.keys(counts || {})) {
    if (!kinds.includes(kind) && counts[kind]) parts.push(`${counts[kind]} ${kindLabel(kind, counts[kind])}`);
  }
  return parts.join(", ");
}

export { el };

/** An icon's picture as a stylesheet's image. */
function svgImage(inner) {
  return `url("data:image/svg+xml,${encodeURIComponent(`<svg xmlns="${SVG_NS}" viewBox="0 0 24 24">${inner}</svg>`)}")`;
}

/**
 * The icons' pictures, one rule per kind: an icon is one element whose picture is its
 * stylesheet's image, so a card drawn or dropped adds or removes one node for its icon, not a
 * drawing of a dozen. The joker is drawn in the text's colour (its picture as a mask).
 */
export const ICON_CSS = [
  ".mm-icon { display: inline-block; width: 16px; height: 16px; background: center / contain no-repeat; }",
  ...Object.entries(ICONS).map(([kind, inner]) => `.mm-icon[data-kind="${kind}"] { background-image: ${svgImage(inner)}; }`),
  `.mm-icon[data-kind="joker"] { background-color: currentColor; -webkit-mask: ${svgImage(JOKER_ICON.replaceAll("currentColor", "#000"))} center / contain no-repeat; mask: ${svgImage(JOKER_ICON.replaceAll("currentColor", "#000"))} center / contain no-repeat; }`,
].join("\n");

/** The icon of an ingredient kind (or a joker for an unknown/`null` kind), named by its title. */
export function ingredientIcon(kind, doc) {
  return cloned(doc, `icon\u001f${kind}`, () => buildIngredientIcon(kind, doc));
}

function buildIngredientIcon(kind, doc) {
  const known = Object.prototype.hasOwnProperty.call(ICONS, kind);
  return el(doc, "span", { class: "mm-icon", "aria-hidden": "true", title: known ? KINDS[kind].label : "any kind", dataset: { kind: known ? kind : "joker" } });
}

function ingredientInfo(kind) {
  return own(KINDS, kind) ? KINDS[kind] : { label: String(kind), short: "?" };
}

/**
 * An ingredient card: icon, name and the kind's colour. `opts.count` adds a count badge,
 * `opts.button` makes it a real <button> (for choosing cards in the hand), `opts.mark`
 * adds a class such as "from-hand" or "taken", `opts.tip` keeps its title as a tip (`setTip`)
 * for a card marked in place, `opts.nameless` leaves the name out (a row of small cards shows
 * the icon and count; the label says the name).
 */
export function ingredientCard(kind, opts = {}, doc) {
  const key = `ing\u001f${kind}\u001f${opts.count}\u001f${opts.button}\u001f${opts.title}\u001f${opts.tip}\u001f${opts.bare}\u001f${opts.small}\u001f${opts.mark}\u001f${opts.pressed}\u001f${opts.nameless}`;
  return cloned(doc, key, () => buildIngredientCard(kind, opts, doc));
}

function buildIngredientCard(kind, opts, doc) {
  const info = ingredientInfo(kind);
  const count = opts.count;
  const label = count !== undefined && count !== null ? `${count} × ${info.label}` : info.label;
  const node = el(
    doc,
    opts.button ? "button" : "div",
    {
      class: ingredientClass(kind, opts),
      title: opts.tip ? null : opts.title || label,
      // A button's name starts with the name it shows (what a voice command says: "click
      // Pineapple"), then what it does.
      "aria-label": opts.button && opts.title && !opts.bare ? `${opts.small ? info.short : info.face || info.label}: ${opts.title}` : opts.title || label,
      // A drawn card is a picture with a name; a card to choose is a button.
      role: opts.button ? null : "img",
      type: opts.button ? "button" : null,
      "aria-pressed": opts.button && opts.pressed !== undefined ? String(!!opts.pressed) : null,
      dataset: opts.tip ? { kind: String(kind), tip: opts.title || label } : { kind: String(kind) },
    },
    // `bare`: a card under others in a stack, of which only the coloured top edge shows.
    opts.bare ? null : ingredientIcon(kind, doc),
    opts.bare || opts.nameless ? null : el(doc, "span", { class: "mm-card-name" }, opts.small ? info.short : info.face || info.label),
  );
  if (count !== undefined && count !== null) {
    node.append(el(doc, "span", { class: "mm-count", "aria-hidden": "true", dataset: { n: String(count) } }));
  }
  return node;
}

function ingredientClass(kind, opts) {
  return ["mm-card", "mm-ing", `mm-kind-${kind}`, own(KINDS, kind) ? null : "mm-kind-none", opts.mark, opts.small ? "mm-small" : null]
    .filter(Boolean)
    .join(" ");
}

/** An ingredient card drawn by `ingredientCard` (a picture, no count) given another mark and
 * title in place, as a fresh one would have them: a card marked or unmarked is not built again. */
export function markIngredientCard(node, kind, opts = {}) {
  const cls = ingredientClass(kind, opts);
  if (node.className !== cls) node.className = cls;
  const title = opts.title || ingredientInfo(kind).label;
  if (node.getAttribute("aria-label") !== title) node.setAttribute("aria-label", title);
  setTip(node, title);
}

/** One recipe line: an icon (or joker) with "N ×" and a short text. */
function recipeLine(doc, kind, n, text, cls) {
  return el(
    doc,
    "li",
    { class: ["mm-recipe-line", cls].filter(Boolean).join(" "), dataset: { kind: kind || "joker", n: String(n) } },
    el(doc, "span", { class: "mm-recipe-n" }, n === null ? "" : `${n}×`),
    ingredientIcon(kind, doc),
    // Spaces a flex line does not draw, between the words a reader reads out (a picture's
    // line, whose text is null, has no words).
    ...(text === null ? [] : [" ", el(doc, "span", { class: "mm-recipe-text" }, text), " "]),
  );
}

/**
 * The lines of an order card's recipe: what the owner must deliver. Special orders print their
 * rule in words next to the fixed part of the recipe (the owner's personal ingredient P, which
 * the deck leaves implicit on them). `edition` sets the Minimale's size (classic 3, Plus 4).
 */
export function recipeLines(order, edition) {
  const lines = [];
  const recipe = order.recipe || {};
  // Biggest count first, as the printed cards read ("4 pineapple + 1 pepper").
  const printed = Object.entries(recipe).filter(([, n]) => n);
  printed.sort((a, b) => b[1] - a[1]);
  for (const [kind, n] of printed) lines.push({ kind, n, text: kindLabel(kind, n) });
  const personal = PERSONAL[order.colour];
  // The engine prints the fixed part (1 P, the Pizza Mamma Mia's fixed kind) in `recipe`; a
  // bare deck entry leaves it implicit.
  const bare = Object.keys(recipe).length === 0;
  const withPersonal = () => {
    if (bare && personal) lines.push({ kind: personal, n: 1, text: kindLabel(personal, 1) });
  };
  switch (order.type) {
    case "bombastica":
      lines.push({ kind: null, n: null, text: "15+ cards: takes the whole table" });
      break;
    case "monotoni":
      withPersonal();
      lines.push({ kind: null, n: 6, text: "of one kind you choose" });
      break;
    case "ciottona":
      withPersonal();
      lines.push({ kind: null, n: 4, text: "of one kind you choose" });
      lines.push({ kind: null, n: 4, text: "of another kind" });
      break;
    case "minimale":
      withPersonal();
      lines.push({ kind: null, n: edition === "plus" ? 4 : 3, text: "of the scarcest kind on the table" });
      break;
    case "small_monotoni":
      lines.push({ kind: null, n: 5, text: "of one kind you choose" });
      break;
    case "pizza_mamma_mia": {
      const fixed = order.fixed || personal;
      if (bare && fixed) lines.push({ kind: fixed, n: 1, text: kindLabel(fixed, 1) });
      const choices = order.choices || [];
      lines.push({
        kind: null,
        n: 5,
        text: choices.length ? choices.map((k) => kindLabel(k, 2)).join(" or ") : "of one printed kind",
        choices,
      });
      break;
    }
    default:
      break;
  }
  return lines;
}

/** The name printed on an order card's face. */
function printedName(order) {
  return order.name || ORDER_TYPES[order.type] || String(order.type);
}

/**
 * An order card named in a sentence, as the engine's captions name it (cards.order_name): the
 * name printed on its face, with what tells equal names apart — "Monotoni", "Normale (4 olives
 * + 1 pepper)", "Mini pizza (1 pineapple + 1 mushroom + 1 pepper, no olives)", "Small Monotoni
 * (no peppers)", "Pizza Mamma Mia (1 pineapple + 5 salami or 5 shrimp)". Never the notation's label.
 */
export function orderName(order) {
  const name = printedName(order);
  // Biggest count first, ties in the table's order (the recipe's own), as the cards read.
  const recipe = Object.entries(order.recipe || {}).filter(([, n]) => n);
  recipe.sort((a, b) => b[1] - a[1]);
  const printed = recipe.map(([kind, n]) => `${n} ${kindLabel(kind, n)}`).join(" + ");
  let details = "";
  if (order.type === "normal") details = printed;
  else if (order.type === "mini") details = `${printed}, no ${kindLabel(order.crossed, 2)}`;
  else if (order.type === "small_monotoni") details = `no ${kindLabel(order.crossed, 2)}`;
  else if (order.type === "pizza_mamma_mia") {
    details = [printed, (order.choices || []).map((k) => `5 ${kindLabel(k, 5)}`).join(" or ")].filter(Boolean).join(" + ");
  }
  return details ? `${name} (${details})` : name;
}

/** A one-line description of an order, e.g. "green Normale: 4 pineapples, 1 pepper". */
export function orderText(order, edition) {
  const name = printedName(order);
  const lines = recipeLines(order, edition).map((l) => (l.n ? `${l.n} ${l.kind ? kindLabel(l.kind, l.n) : l.text}` : l.text));
  const crossed = order.crossed ? ` (no ${kindLabel(order.crossed, 2)} on the table)` : "";
  return `${order.colour} ${name}: ${lines.join(", ")}${crossed}`;
}

/**
 * An order card, face up: the owner's colour, the order's name and its recipe. A crossed-out
 * kind (Small Monotoni, Mini pizza) is drawn struck through. `opts.button` for choosing it.
 */
export function orderCard(order, opts = {}, doc) {
  const key = `order\u001f${orderKey(order)}\u001f${opts.edition}\u001f${opts.button}\u001f${opts.pressed}\u001f${opts.mark}\u001f${opts.small}`;
  return cloned(doc, key, () => buildOrderCard(order, opts, doc));
}

/** What an order card's face is drawn from (its name, recipe, colour and rule). */
function orderKey(order) {
  return JSON.stringify([order.name, order.type, order.colour, order.recipe, order.crossed, order.choices, order.fixed]);
}

function buildOrderCard(order, opts, doc) {
  const name = printedName(order);
  // `opts.small`: a picture in a row of small cards (not a button), which shows the recipe's
  // counts and icons and a special order's name: the words it does not show are left out (the
  // card's own label says them), not built and hidden.
  const picture = !!opts.small && !opts.button;
  const list = el(doc, "ul", { class: "mm-recipe" });
  for (const line of recipeLines(order, opts.edition)) {
    const item = recipeLine(doc, line.kind, line.n, picture ? null : line.text);
    // Pizza Mamma Mia: the two printed alternatives as icons too.
    for (const kind of line.choices || []) item.append(ingredientIcon(kind, doc));
    list.append(item);
  }
  if (order.crossed) {
    list.append(recipeLine(doc, order.crossed, null, picture ? null : `no ${kindLabel(order.crossed, 2)} on the table`, "mm-crossed"));
  }
  const node = el(
    doc,
    opts.button ? "button" : "div",
    {
      class: ["mm-card", "mm-order", `mm-type-${order.type}`, colourClass(order.colour), opts.mark].filter(Boolean).join(" "),
      title: orderText(order, opts.edition),
      // A button is named by what it shows ("Normale 4× peppers 1× mushroom"), which a voice
      // command names it by; a picture of a card by the words of its recipe.
      "aria-label": opts.button ? null : orderText(order, opts.edition),
      role: opts.button ? null : "img",
      type: opts.button ? "button" : null,
      "aria-pressed": opts.button && opts.pressed !== undefined ? String(!!opts.pressed) : null,
      dataset: { colour: String(order.colour), type: String(order.type) },
    },
    picture && order.type === "normal" ? null : el(doc, "div", { class: "mm-order-head" }, el(doc, "span", { class: "mm-order-name" }, name)),
    list,
  );
  return node;
}

/** An order card as its spine, where only its name needs to show (the oven's revealed cards):
 * one box in the owner's colour with the printed name down it; its recipe is in its words, for a
 * pointer's title and a screen reader. */
export function orderSpine(order, edition, doc) {
  return cloned(doc, `spine\u001f${orderKey(order)}\u001f${edition}`, () => buildOrderSpine(order, edition, doc));
}

function buildOrderSpine(order, edition, doc) {
  const text = orderText(order, edition);
  return el(
    doc,
    "div",
    {
      class: `mm-spine ${colourClass(order.colour)}`,
      title: text,
      role: "img",
      "aria-label": text,
      dataset: { colour: String(order.colour), type: String(order.type) },
    },
    printedName(order),
  );
}

/** A card back: "ingredient" (the supply's back) or "order" (in the owner's colour). */
export function cardBack(which, colour, doc) {
  return cloned(doc, `back\u001f${which}\u001f${colour}`, () => buildCardBack(which, colour, doc));
}

function buildCardBack(which, colour, doc) {
  const isOrder = which === "order";
  return el(
    doc,
    "div",
    {
      class: `mm-card mm-back ${isOrder ? `mm-back-order ${colourClass(colour)}` : "mm-back-ing"}`,
      title: isOrder ? `${colour || ""} order card (face down)`.trim() : "ingredient card (face down)",
      role: "img",
      "aria-label": isOrder ? `${colour || ""} order card (face down)`.trim() : "ingredient card (face down)",
      dataset: { back: isOrder ? "order" : "ingredient" },
    },
    el(doc, "span", { class: "mm-back-mark", "aria-hidden": "true" }, "MM"),
  );
}

/** A face-down pile with its count (the supply, a waiter, the oven). */
export function pile(which, count, label, colour, doc) {
  // A pile of one back (or none: an empty pile shows one, faded) stands lower than a stack.
  const node = el(doc, "div", { class: `mm-pile mm-pile-${which}${count <= 1 ? " mm-pile-one" : ""}`, dataset: { tip: `${label}: ${count}` } });
  const stack = el(doc, "div", { class: "mm-pile-stack" });
  const shown = Math.min(count, 3);
  for (let i = 0; i < Math.max(shown, 1); i++) {
    const back = cardBack(which === "waiter" ? "order" : "ingredient", colour, doc);
    if (count === 0) back.classList.add("mm-empty");
    stack.append(back);
  }
  node.append(stack, el(doc, "div", { class: "mm-pile-label" }, `${label} `, el(doc, "b", { class: "mm-pile-count" }, String(count))));
  return node;
}

/** A pile drawn by `pile` set to another count in place: its title, its count, up to three backs. */
export function setPileCount(node, which, count, label, doc) {
  setTip(node, `${label}: ${count}`);
  const stack = node.firstChild;
  const shown = Math.max(Math.min(count, 3), 1);
  while (stack.childElementCount > shown) stack.lastChild.remove();
  while (stack.childElementCount < shown) stack.append(cardBack(which === "waiter" ? "order" : "ingredient", null, doc));
  node.classList.toggle("mm-pile-one", shown === 1);
  for (const back of stack.children) back.classList.toggle("mm-empty", count === 0);
  setText(node.lastChild.lastChild, String(count));
}

/** The Mamma Mia card (classic): it decides who empties the oven. */
export function mammaMiaCard(doc) {
  return el(
    doc,
    "div",
    { class: "mm-card mm-mammamia", title: "The Mamma Mia card: its holder empties the oven", dataset: { card: "mamma-mia" } },
    el(doc, "span", { class: "mm-mammamia-text" }, "Mamma Mia!"),
  );
}
