// A small DOM builder shared by the card renderers.

/** The document to build in: the one given, else the global one (jsdom in tests). */
export function docOf(doc) {
  return doc || globalThis.document;
}

/** `el(doc, "div", {class, style: {...}, dataset: {...}, attr: v}, ...children)`: false, null and
 * undefined attributes and children are skipped, so optional parts read inline. */
export function el(doc, tag, attrs = {}, ...children) {
  const node = docOf(doc).createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) node.style.setProperty(prop, v);
    } else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}
