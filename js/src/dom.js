// A small DOM builder shared by the card renderers.

/** The document to build in: the one given, else the global one (jsdom in tests). */
export function docOf(doc) {
  return doc || globalThis.document;
}

/** `el(doc, "div", {class, style: {...}, dataset: {...}, attr: v}, ...children)`: false, null and
 * undefined attributes and children are skipped, so optional parts read inline. */
export function el(doc, tag, attrs = {}, ...children) {
  const node = docOf(doc).createElement(tag);
  // Plain loops: a frame builds hundreds of nodes, and entries() and flat() allocate for each.
  for (const key in attrs) {
    const value = attrs[key];
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "style" && typeof value === "object") {
      for (const prop in value) node.style.setProperty(prop, value[prop]);
    } else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (Array.isArray(child)) for (const part of child) appendChild(node, part);
    else appendChild(node, child);
  }
  return node;
}

// Templates kept per document (a node cannot be cloned into another one); a full cache is
// emptied rather than grown without end in a long game.
const TEMPLATES = new WeakMap();
const TEMPLATES_MAX = 1000;

/**
 * A node as `build()` makes it for `key` (a string of every input `build` reads), built once and
 * cloned afterwards: `cloneNode` copies a subtree in one native call, where building it sets each
 * attribute and appends each child from script. The clone is the caller's to change.
 */
export function cloned(doc, key, build) {
  const d = docOf(doc);
  let cache = TEMPLATES.get(d);
  if (!cache) TEMPLATES.set(d, (cache = new Map()));
  let template = cache.get(key);
  if (!template) {
    if (cache.size >= TEMPLATES_MAX) cache.clear();
    template = build();
    cache.set(key, template);
  }
  return template.cloneNode(true);
}

function appendChild(node, child) {
  if (child === null || child === undefined || child === false) return;
  node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
}

/**
 * Make `target`'s children look like `fresh` (a list of new nodes), changing only what differs:
 * nodes that stay keep their identity (focus, scroll position, running animations), so a frame
 * that changes one card re-lays out one card. Children carrying `data-key` are matched by key
 * (a log that grows at the top moves nothing else); the others by position and tag.
 */
export function morphChildren(target, fresh) {
  const keyOf = (n) => (n.nodeType === 1 ? n.getAttribute("data-key") : null);
  let keyed = null;
  const unkeyed = [];
  for (let n = target.firstChild; n; n = n.nextSibling) {
    const key = keyOf(n);
    if (key === null) unkeyed.push(n);
    else (keyed || (keyed = new Map())).set(key, n);
  }
  let next = 0;
  let at = target.firstChild;
  for (const node of fresh) {
    const key = keyOf(node);
    let match = null;
    if (key !== null) {
      match = keyed ? keyed.get(key) || null : null;
      if (match) keyed.delete(key);
    } else {
      const candidate = unkeyed[next];
      if (candidate && candidate.nodeType === node.nodeType && candidate.nodeName === node.nodeName) {
        match = candidate;
        next += 1;
      }
    }
    if (match) morphNode(match, node);
    else match = node;
    if (at !== match) target.insertBefore(match, at);
    else at = at.nextSibling;
  }
  // Whatever follows the last placed node was not asked for.
  while (at) {
    const gone = at;
    at = at.nextSibling;
    target.removeChild(gone);
  }
}

function iconKey(n) {
  return n.nodeName === "svg" ? `${n.getAttribute("data-kind")}|${n.getAttribute("data-card")}|${n.getAttribute("class")}` : null;
}

function morphNode(node, fresh) {
  if (node === fresh) return;
  if (node.nodeType !== 1) {
    if (node.nodeValue !== fresh.nodeValue) node.nodeValue = fresh.nodeValue;
    return;
  }
  // A node built from the same inputs (`data-sig`) is already what it should be.
  const sig = fresh.getAttribute("data-sig");
  if (sig !== null && sig === node.getAttribute("data-sig")) return;
  // An icon is a clone of one template per kind: the same kind, the same picture.
  const icon = iconKey(node);
  if (icon !== null && icon === iconKey(fresh)) return;
  // By their names: reading `attributes` makes an Attr node for each attribute read, on the
  // page's node and on the fresh one.
  const oldNames = node.getAttributeNames();
  for (let i = oldNames.length - 1; i >= 0; i--) {
    if (!fresh.hasAttribute(oldNames[i])) node.removeAttribute(oldNames[i]);
  }
  const names = fresh.getAttributeNames();
  for (let i = 0; i < names.length; i++) {
    const value = fresh.getAttribute(names[i]);
    if (node.getAttribute(names[i]) !== value) node.setAttribute(names[i], value);
  }
  // A field's value, once the user touched it, is no longer its attribute.
  if ((node.tagName === "SELECT" || node.tagName === "INPUT") && node.value !== fresh.value) node.value = fresh.value;
  if (!node.firstChild && !fresh.firstChild) return;
  morphChildren(node, Array.from(fresh.childNodes));
}

/** Set a node's text, changing its one text node's value when it has one: replacing the text
 * node (`textContent`) takes it out of the layout and puts a new one in. */
export function setText(node, text) {
  const only = node.firstChild;
  if (only && only === node.lastChild && only.nodeType === 3) {
    if (only.nodeValue !== text) only.nodeValue = text;
  } else if (node.textContent !== text) node.textContent = text;
}

/**
 * Set the words a node shows under the pointer, kept in its data-tip and given to its title when
 * the pointer comes over it or it takes the focus (`showTips`): a title set restyles its node
 * (the browser's own style sheet has rules on [title]), where a data attribute no rule reads
 * does not, and a count's words (a pile's, a column's) change with most frames. A title already
 * given is kept current.
 */
export function setTip(node, text) {
  if (node.dataset.tip === text) return;
  node.dataset.tip = text;
  if (node.hasAttribute("title")) node.setAttribute("title", text);
}

/** Gives the node under `root` that the pointer comes over, or that takes the focus, its tip
 * (`setTip`) as its title, where a tooltip and a screen reader find it. Returns what stops it. */
export function showTips(root) {
  const show = (event) => {
    const node = event.target.closest ? event.target.closest("[data-tip]") : null;
    if (node && root.contains(node) && node.getAttribute("title") !== node.dataset.tip) node.setAttribute("title", node.dataset.tip);
  };
  root.addEventListener("pointerover", show);
  root.addEventListener("focusin", show);
  return () => {
    root.removeEventListener("pointerover", show);
    root.removeEventListener("focusin", show);
  };
}

/**
 * Make `parent`'s children the nodes of `items`, in order, building only what changed. Each
 * item is `{key, sig, build, update}`: a child drawn for the same key from the same inputs
 * (`sig`, any string) stays as it is, unbuilt and uncompared; a child whose inputs changed is
 * rebuilt and patched in place (it keeps its identity: focus, scroll, animations); `update(node)`
 * instead of a signature lets a child patch itself (a list inside it), and `patch(node)` sets
 * what the signature leaves out (an index that shifts) on every frame. `build` may return a
 * node kept by the caller (a region's persistent part). Children not asked for are removed.
 */
export function reconcile(parent, items) {
  // Most frames keep every child in its place: then each is checked where it is, with no
  // bookkeeping of what moves.
  let n = parent.firstChild;
  let kept = true;
  for (const item of items) {
    if (!item) continue;
    if (!n || n._twKey !== item.key) {
      kept = false;
      break;
    }
    n = n.nextSibling;
  }
  if (kept && !n) {
    n = parent.firstChild;
    for (const item of items) {
      if (!item) continue;
      const node = n;
      n = n.nextSibling;
      refresh(node, item);
    }
    return;
  }
  const wanted = new Set();
  for (const item of items) if (item) wanted.add(item.key);
  // What goes is removed first, so a child that stays never has to move past it: a move takes
  // the whole subtree out of the page and back in (style and layout again).
  const old = new Map();
  for (let n = parent.firstChild; n; ) {
    const next = n.nextSibling;
    if (n._twKey !== undefined && wanted.has(n._twKey)) old.set(n._twKey, n);
    else parent.removeChild(n);
    n = next;
  }
  let at = parent.firstChild;
  for (const item of items) {
    if (!item) continue;
    let node = old.get(item.key);
    if (node) {
      old.delete(item.key);
      refresh(node, item);
    } else {
      node = builtNode(item);
    }
    if (at !== node) parent.insertBefore(node, at);
    else at = at.nextSibling;
  }
  while (at) {
    const gone = at;
    at = at.nextSibling;
    parent.removeChild(gone);
  }
}

/** A child of `reconcile`'s drawn for `item` the first time: built, marked with its key and
 * signature, updated and patched. */
export function builtNode(item) {
  const node = item.build();
  node._twKey = item.key;
  node._twSig = item.sig;
  if (item.update) item.update(node);
  if (item.patch) item.patch(node);
  return node;
}

/** Bring a child drawn for `item` up to date: its own update, or rebuilt and patched in
 * place when its signature changed; then what its signature leaves out. */
function refresh(node, item) {
  if (item.update) item.update(node);
  else if (node._twSig !== item.sig) {
    const fresh = item.build();
    if (fresh !== node) morphNode(node, fresh);
    node._twSig = item.sig;
  }
  if (item.patch) item.patch(node);
}

/** A persistent node whose children are `items` (or what `items()` returns), drawn once and
 * patched afterwards. */
export function shell(key, build, items) {
  return { key, build, update: (node) => reconcile(node, typeof items === "function" ? items() : items) };
}

/** A node that depends on nothing: built once. */
export function fixed(key, build) {
  return { key, sig: "", build };
}

/** Items drawn afresh (for a caller that wants the nodes themselves). */
export function drawn(doc, items) {
  const holder = docOf(doc).createElement("div");
  reconcile(holder, items);
  return Array.from(holder.children);
}

/**
 * The widths a row of flex items shrinks to in `width` (CSS flexbox, shrinking only): each item
 * `{basis, min, shrink}` (shrink 0 keeps its basis) gives up room in proportion to its basis
 * until it reaches its minimum, with `gap` between items. A fanned row of cards knows from this
 * which of its cards are covered without a container query per card (which restyles every card
 * of the row whenever any of them changes width) and without reading the layout.
 */
export function shrinkToFit(width, items, gap = 0) {
  const n = items.length;
  const sizes = items.map((it) => it.basis);
  const frozen = items.map((it) => !it.shrink);
  const room = width - gap * Math.max(0, n - 1);
  for (let round = 0; round <= n; round++) {
    let used = 0;
    let scaled = 0;
    for (let i = 0; i < n; i++) {
      if (frozen[i]) used += sizes[i];
      else {
        used += items[i].basis;
        scaled += items[i].basis * items[i].shrink;
      }
    }
    const free = room - used;
    if (free >= 0 || scaled === 0) {
      for (let i = 0; i < n; i++) if (!frozen[i]) sizes[i] = items[i].basis;
      return sizes;
    }
    // Every item shrinks in proportion; those held at their minimum are frozen there and the
    // rest share the room again.
    let clamped = false;
    for (let i = 0; i < n; i++) {
      if (frozen[i]) continue;
      const target = items[i].basis + (free * items[i].basis * items[i].shrink) / scaled;
      const min = items[i].min || 0;
      sizes[i] = Math.max(target, min);
      if (target < min) clamped = true;
    }
    if (!clamped) return sizes;
    for (let i = 0; i < n; i++) if (!frozen[i] && sizes[i] === (items[i].min || 0)) frozen[i] = true;
  }
  return sizes;
}

// A frame drawn sooner than this after the one before it belongs to a scrub (the slider dragged,
// a key held down), not to a move being played: its cards do not fly, as each flight would be cut
// off by the next frame before it landed. Play at the fastest speed is slower than this.
export const SCRUB_MS = 100;

/** A clock of the frames drawn: `paced()`, called once per frame, tells whether this frame comes
 * at least SCRUB_MS after the one before it. */
export function paceWatch(now = () => Date.now()) {
  let last = -Infinity;
  return () => {
    const t = now();
    const paced = t - last >= SCRUB_MS;
    last = t;
    return paced;
  };
}

/**
 * Play `keyframes` on `node` with the Web Animations API: nothing is added to the node (a class
 * added, then taken off the card before, would restyle both), and the reader's wish for reduced
 * motion is kept. Without the API (jsdom) nothing moves.
 */
export function animateNode(node, keyframes, options) {
  if (!node || typeof node.animate !== "function") return null;
  const win = node.ownerDocument && node.ownerDocument.defaultView;
  if (win && typeof win.matchMedia === "function" && win.matchMedia("(prefers-reduced-motion: reduce)").matches) return null;
  return node.animate(keyframes, options);
}

/**
 * Rows whose content width is kept from a ResizeObserver (as `node._twWidth`), so an update
 * reads no layout: `watch(node)` starts observing a row and `apply(node)` runs again whenever
 * its width changes. A new row takes the width last seen for a row of its kind (its class and
 * its parent's), which the observer confirms before the row is painted; only a row of a kind
 * not seen yet, or seen before the table changed width, reads its width once. Reading it lays
 * out the whole page in the middle of an update (in a notebook: every cell), and the rows of a
 * kind come and go with the frames (a revealed strip with each oven evaluation). Rows taken out
 * of the page are let go at the next `watch`. Without ResizeObserver (jsdom) no width is ever
 * known.
 */
export function widthWatcher(apply) {
  const watched = new Set();
  const seen = new Map(); // a kind of row → the width a row of that kind last had
  const kindOf = (node) => `${node.className}|${node.parentNode ? node.parentNode.className : ""}`;
  const observer = typeof ResizeObserver === "function"
    ? new ResizeObserver((entries) => {
      for (const entry of entries) {
        const box = entry.contentBoxSize && entry.contentBoxSize[0];
        const width = box ? box.inlineSize : entry.contentRect.width;
        const node = entry.target;
        if (node._twWidth === width) continue;
        // A row shown at another width than it had (or than its kind had): the table changed
        // width, so the widths kept for rows not in the page now may be wrong too. (A row
        // taken out of the page reports 0; a width read once is rounded to the pixel.)
        if (width > 0 && node._twWidth > 0 && Math.abs(width - node._twWidth) >= 1) seen.clear();
        node._twWidth = width;
        if (width > 0) seen.set(kindOf(node), width);
        apply(node);
      }
    })
    : null;
  return {
    watch(node) {
      if (!observer || watched.has(node)) return;
      for (const old of watched) {
        if (!old.isConnected) {
          observer.unobserve(old);
          watched.delete(old);
        }
      }
      watched.add(node);
      observer.observe(node);
      // The observer reports with the next rendering; a frame drawn before it (a walk through
      // the timeline in one task) already needs the width.
      const kind = kindOf(node);
      const width = seen.get(kind);
      if (width !== undefined) {
        node._twWidth = width;
        return;
      }
      const style = node.ownerDocument.defaultView.getComputedStyle(node);
      const read = node.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      if (read > 0) {
        node._twWidth = read;
        seen.set(kind, read);
      }
    },
    disconnect() {
      if (observer) observer.disconnect();
      watched.clear();
    },
  };
}
