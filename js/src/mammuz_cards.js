// MammuZ cards drawn in SVG and CSS: the eight ice-age animals, the six dinosaurs and the
// card back. Pure: every function returns new DOM nodes built from its arguments (no image
// downloads, no global state). Each animal is told apart three ways — its icon, its colour
// and the species number printed in the corner (how many cards the species has) — and each
// card carries its name as text for readers and screen readers.

import { docOf, el } from "./dom.js";

const SVG_NS = "http://www.w3.org/2000/svg";

/** The engine's card order (rules.py CARDS): notation lists cards in this order. */
export const SPECIES = ["mammoth", "bear", "deer", "tiger", "hare", "squirrel", "gopher", "mouse"];
export const DINOSAURS = ["brontosaurus", "pterosaur", "triceratops", "stegosaurus", "plesiosaur", "tyrannosaurus"];
export const CARDS = [...SPECIES, ...DINOSAURS];

export const ANIMALS = {
  mammoth: { label: "Mammoth", plural: "mammoths", number: 2, colour: "#8a5a3c" },
  bear: { label: "Bear", plural: "bears", number: 3, colour: "#3f3f46" },
  deer: { label: "Deer", plural: "deer", number: 4, colour: "#c27c0e" },
  tiger: { label: "Tiger", plural: "tigers", number: 5, colour: "#e0651b" },
  hare: { label: "Hare", plural: "hares", number: 6, colour: "#7d8ea3" },
  squirrel: { label: "Squirrel", plural: "squirrels", number: 7, colour: "#b5432a" },
  gopher: { label: "Gopher", plural: "gophers", number: 8, colour: "#6b8e23" },
  mouse: { label: "Mouse", plural: "mice", number: 9, colour: "#8e6bbf" },
};

export const DINOS = {
  brontosaurus: { label: "Brontosaurus", effect: "the displayer takes the herd", colour: "#1f7a6d" },
  pterosaur: { label: "Pterosaur", effect: "the challenger takes the herd", colour: "#2b6cb0" },
  triceratops: { label: "Triceratops", effect: "the challenger picks who takes the herd", colour: "#b7791f" },
  stegosaurus: { label: "Stegosaurus", effect: "the herd is dealt out one by one", colour: "#38a169" },
  plesiosaur: { label: "Plesiosaur", effect: "the herd goes into the pile", colour: "#2c5282" },
  tyrannosaurus: { label: "Tyrannosaurus", effect: "the herd leaves the game", colour: "#9b2c2c" },
};

// Icons on a 24×24 grid: silhouettes whose outlines differ (tusks and trunk, round ears, antlers,
// sabre fangs, long ears, bushy tail, a head out of its hole, a thin tail; a long neck, wings,
// three horns, back plates, flippers in waves, open jaws), so they read without colour too.
const ICONS = {
  mammoth:
    '<path d="M4 19 L4 11 Q4 5 11 5 Q18 5 19 10 L19 19 L16 19 L16 15 L8 15 L8 19 Z" fill="#8a5a3c"/>' +
    '<path d="M19 10 Q22 13 21 18 L19.5 18 Q20 14 18 12 Z" fill="#6b4226"/>' +
    '<path d="M17 13 Q15 17 11 16" stroke="#f4ecd8" stroke-width="1.6" fill="none" stroke-linecap="round"/>' +
    '<circle cx="16" cy="8.5" r="0.9" fill="#fff"/>',
  bear:
    '<circle cx="6.5" cy="6" r="3" fill="#3f3f46"/><circle cx="17.5" cy="6" r="3" fill="#3f3f46"/>' +
    '<circle cx="12" cy="13" r="8" fill="#3f3f46"/>' +
    '<ellipse cx="12" cy="16" rx="3.5" ry="2.6" fill="#a8a29e"/><circle cx="12" cy="15" r="1.2" fill="#111"/>' +
    '<circle cx="9" cy="11" r="1" fill="#fff"/><circle cx="15" cy="11" r="1" fill="#fff"/>',
  deer:
    '<path d="M8 9 L5 3 M6.2 5.5 L3 4.5 M16 9 L19 3 M17.8 5.5 L21 4.5" stroke="#7a4d08" stroke-width="1.5" fill="none" stroke-linecap="round"/>' +
    '<path d="M7 9 Q12 7 17 9 L14.5 20 Q12 22 9.5 20 Z" fill="#c27c0e"/>' +
    '<circle cx="10" cy="12" r="0.9" fill="#fff"/><circle cx="14" cy="12" r="0.9" fill="#fff"/>' +
    '<ellipse cx="12" cy="19.5" rx="1.6" ry="1.1" fill="#3b2406"/>',
  tiger:
    '<path d="M4 6 L7 9 M20 6 L17 9" stroke="#e0651b" stroke-width="2.5" stroke-linecap="round"/>' +
    '<ellipse cx="12" cy="12" rx="8" ry="7" fill="#e0651b"/>' +
    '<path d="M12 5 L12 8 M7 8 L9 10 M17 8 L15 10 M5 13 L8 13 M19 13 L16 13" stroke="#222" stroke-width="1.2"/>' +
    '<path d="M9.5 15 L10.3 22 L11.2 15.5 Z M14.5 15 L13.7 22 L12.8 15.5 Z" fill="#fffdf5" stroke="#555" stroke-width="0.4"/>' +
    '<circle cx="9" cy="11" r="1" fill="#222"/><circle cx="15" cy="11" r="1" fill="#222"/>',
  hare:
    '<ellipse cx="9" cy="6" rx="1.8" ry="5" fill="#7d8ea3"/><ellipse cx="15" cy="6" rx="1.8" ry="5" fill="#7d8ea3"/>' +
    '<ellipse cx="9" cy="6" rx="0.8" ry="3.5" fill="#f2c5d0"/><ellipse cx="15" cy="6" rx="0.8" ry="3.5" fill="#f2c5d0"/>' +
    '<ellipse cx="12" cy="16" rx="6" ry="5.5" fill="#7d8ea3"/>' +
    '<circle cx="10" cy="15" r="0.9" fill="#111"/><circle cx="14" cy="15" r="0.9" fill="#111"/>' +
    '<path d="M11 18 L12 19 L13 18" stroke="#333" stroke-width="0.8" fill="none"/>',
  squirrel:
    '<path d="M16 21 Q23 17 21 9 Q19 3 14 5 Q18 8 17 13 Q16 17 13 19 Z" fill="#b5432a"/>' +
    '<ellipse cx="10" cy="16" rx="4.5" ry="5" fill="#cf6a4c"/>' +
    '<circle cx="8.5" cy="9" r="3.3" fill="#cf6a4c"/><path d="M7 6.5 L7.5 4 L9 6" fill="#cf6a4c"/>' +
    '<circle cx="7.6" cy="8.6" r="0.8" fill="#111"/>',
  gopher:
    '<ellipse cx="12" cy="20" rx="10" ry="2.8" fill="#5a3d1e"/>' +
    '<path d="M6 20 L6 11 Q6 4 12 4 Q18 4 18 11 L18 20 Z" fill="#6b8e23"/>' +
    '<circle cx="9.5" cy="10" r="1" fill="#111"/><circle cx="14.5" cy="10" r="1" fill="#111"/>' +
    '<rect x="10.6" y="13.5" width="1.3" height="2.3" fill="#fff"/><rect x="12.1" y="13.5" width="1.3" height="2.3" fill="#fff"/>' +
    '<circle cx="12" cy="12.5" r="1" fill="#3b2406"/>',
  mouse:
    '<path d="M18 16 Q23 18 21 22" stroke="#8e6bbf" stroke-width="1" fill="none"/>' +
    '<ellipse cx="12" cy="15" rx="7" ry="4.5" fill="#8e6bbf"/>' +
    '<circle cx="7" cy="9" r="3.2" fill="#8e6bbf"/><circle cx="7" cy="9" r="1.8" fill="#e8d8f7"/>' +
    '<circle cx="4.5" cy="14" r="0.8" fill="#111"/><circle cx="3" cy="15.5" r="0.7" fill="#f2c5d0"/>',
  brontosaurus:
    '<path d="M3 19 L5 13 Q7 10 12 11 L15 11 Q16 4 19 3 Q22 3 21 5 L18 6 Q17 10 17 13 Q18 18 16 19 L14 19 L14 16 L9 16 L9 19 Z" fill="#1f7a6d"/>' +
    '<circle cx="19.5" cy="4" r="0.6" fill="#fff"/>',
  pterosaur:
    '<path d="M12 10 L2 6 Q5 11 4 15 Q8 12 12 13 Q16 12 20 15 Q19 11 22 6 Z" fill="#2b6cb0"/>' +
    '<path d="M11 9 Q12 5 16 4 L13 8 Z" fill="#2b6cb0"/><path d="M12 13 L12 18" stroke="#2b6cb0" stroke-width="1.5"/>',
  triceratops:
    '<path d="M4 9 Q8 2 14 4 Q11 8 12 11 Z" fill="#b7791f"/>' +
    '<path d="M6 19 L6 14 Q7 9 13 10 L19 12 Q21 14 19 16 L17 16 L17 19 L15 19 L15 16 L9 16 L9 19 Z" fill="#d69e2e"/>' +
    '<path d="M19 12 L23 10 M17 10.5 L20 6.5 M15 10 L17.5 6" stroke="#fffaf0" stroke-width="1.2" stroke-linecap="round"/>',
  stegosaurus:
    '<path d="M2 17 Q8 10 14 11 Q19 12 22 16 L19 16 L19 19 L17 19 L17 16 L9 16 L9 19 L7 19 L7 16 Z" fill="#38a169"/>' +
    '<path d="M6 13 L7 8 L9 12 M9.5 11.5 L11 6 L13 11 M13 11 L15 6.5 L16.5 12 M16.5 12 L18.5 8.5 L19 13.5" fill="#276749" stroke="#276749" stroke-width="1"/>',
  plesiosaur:
    '<path d="M2 20 Q5 18 8 20 Q11 22 14 20 Q17 18 20 20 Q21.5 21 22 20.5" stroke="#63b3ed" stroke-width="1.4" fill="none"/>' +
    '<path d="M6 17 Q8 13 13 14 Q14 8 16 5 Q18 3 19.5 4.5 L17.5 6 Q16 10 17 15 Q16 18 11 18 Z" fill="#2c5282"/>' +
    '<path d="M8 17 L5 19 M13 18 L14 20.5" stroke="#2c5282" stroke-width="1.4" stroke-linecap="round"/>',
  tyrannosaurus:
    '<path d="M4 20 L8 13 Q9 6 14 5 L20 5 Q22 6 21 9 L16 9 L19 11 L15 12 Q14 16 12 18 L13 20 L10 20 L10 18 Z" fill="#9b2c2c"/>' +
    '<path d="M16 9 L17 10 L18 9 L19 10.5" stroke="#fff" stroke-width="0.7" fill="none"/>' +
    '<circle cx="16.5" cy="6.8" r="0.8" fill="#fff"/><path d="M12 13 L14 14" stroke="#9b2c2c" stroke-width="1.4"/>',
  unknown: '<rect x="4" y="4" width="16" height="16" rx="3" fill="none" stroke="#888" stroke-dasharray="2 2"/>' +
    '<text x="12" y="16" text-anchor="middle" font-size="10" fill="#888">?</text>',
};

export { el };

/** True for the six dinosaurs. */
export const isDinosaur = (card) => DINOSAURS.includes(card);

/** A card's colour (animals and dinosaurs; grey for an unknown name). */
export function cardColour(card) {
  return (ANIMALS[card] || DINOS[card] || { colour: "#888888" }).colour;
}

/** "Hare" / "3 hares" / "1 mouse" / "2 mice". */
export function cardLabel(card, n) {
  const info = ANIMALS[card] || DINOS[card];
  const name = info ? info.label : String(card);
  if (n === undefined) return name;
  const word = n === 1 ? name.toLowerCase() : ANIMALS[card] ? ANIMALS[card].plural : `${name.toLowerCase()}s`;
  return `${n} ${word}`;
}

// Where a long name may break on a card face (a soft hyphen): the card stays 72 px wide.
const BREAKS = { brontosaurus: "Bronto\u00adsaurus", tyrannosaurus: "Tyranno\u00adsaurus", stegosaurus: "Stego\u00adsaurus",
  triceratops: "Tricera\u00adtops", plesiosaur: "Plesio\u00adsaur", pterosaur: "Ptero\u00adsaur" };

/** The name printed on a card's face. */
export function faceName(card) {
  return BREAKS[card] || cardLabel(card);
}

/** "herd of hares" */
export function herdOf(species) {
  const info = ANIMALS[species];
  return `herd of ${info ? info.plural : species}`;
}

/** `cards` sorted in the engine's card order (unknown names last). */
export function sortCards(cards) {
  const rank = (c) => (CARDS.indexOf(c) < 0 ? CARDS.length : CARDS.indexOf(c));
  return [...cards].sort((a, b) => rank(a) - rank(b));
}

/** The icon of `card` (an `svg.mz-icon` with `data-card`). */
export function cardIcon(card, doc) {
  const d = docOf(doc);
  const key = ICONS[card] ? card : "unknown";
  let cache = iconCache.get(d);
  if (!cache) iconCache.set(d, (cache = new Map()));
  let template = cache.get(key);
  if (!template) {
    template = d.createElementNS(SVG_NS, "svg");
    template.setAttribute("viewBox", "0 0 24 24");
    template.setAttribute("class", "mz-icon");
    template.setAttribute("aria-hidden", "true");
    template.setAttribute("data-card", key);
    template.innerHTML = ICONS[key];
    cache.set(key, template);
  }
  return template.cloneNode(true);
}

// Parsed icons per document, cloned on use: a table draws dozens of cards per frame and
// parsing SVG markup each time is the slow part.
const iconCache = new WeakMap();

/**
 * A face-up card. `opts`: `button` (a toggle button), `pressed`, `small`, `title`, `mark`
 * (an extra class), `known` (face down on the table but known to this view: drawn dimmed).
 */
export function faceCard(card, opts = {}, doc) {
  const animal = ANIMALS[card];
  const dino = DINOS[card];
  const label = cardLabel(card);
  const classes = ["mz-card", animal ? "mz-animal" : dino ? "mz-dino" : "mz-unknown", opts.small ? "mz-small" : null, opts.known ? "mz-known" : null, opts.mark || null];
  const node = el(doc, opts.button ? "button" : "div", {
    class: classes.filter(Boolean).join(" "),
    type: opts.button ? "button" : null,
    "aria-pressed": opts.button ? String(!!opts.pressed) : null,
    "aria-label": opts.ariaLabel || label,
    // A drawn card is a picture with a name; a card to choose is a button.
    role: opts.button ? null : "img",
    title: opts.title || (dino ? `${label}: ${dino.effect}` : label),
    style: { "--mz-card": cardColour(card) },
    dataset: { card: String(card) },
  });
  if (animal) node.append(el(doc, "span", { class: "mz-number", "aria-hidden": "true" }, String(animal.number)));
  if (dino) node.append(el(doc, "span", { class: "mz-number mz-dino-mark", "aria-hidden": "true" }, "✶"));
  node.append(cardIcon(card, doc), el(doc, "span", { class: "mz-card-name" }, faceName(card)));
  return node;
}

/** A face-down card. `opts`: `button`, `title`, `small`, `mark`, `ariaLabel`. */
export function cardBack(opts = {}, doc) {
  const classes = ["mz-card", "mz-back", opts.small ? "mz-small" : null, opts.mark || null];
  return el(
    doc,
    opts.button ? "button" : "div",
    {
      class: classes.filter(Boolean).join(" "),
      type: opts.button ? "button" : null,
      "aria-label": opts.ariaLabel || "a face-down card",
      role: opts.button ? null : "img",
      title: opts.title || "face down",
    },
    el(doc, "span", { class: "mz-back-mark", "aria-hidden": "true" }, "Z"),
  );
}

/** Counts `{card: n}` as "2 hares, 1 mouse" in the engine's card order. */
export function countsText(counts) {
  return sortCards(Object.keys(counts || {}))
    .filter((c) => counts[c])
    .map((c) => cardLabel(c, counts[c]))
    .join(", ");
}
