import { vi } from "vitest";

/** The elements `fn` creates (built or cloned, whether or not they stay in the page). */
export function created(fn) {
  const made = [];
  const make = document.createElement.bind(document);
  const spy = vi.spyOn(document, "createElement").mockImplementation((tag, opts) => {
    const node = make(tag, opts);
    made.push(node);
    return node;
  });
  const clone = Node.prototype.cloneNode;
  const cloneSpy = vi.spyOn(Node.prototype, "cloneNode").mockImplementation(function (deep) {
    const node = clone.call(this, deep);
    if (node.nodeType === 1) made.push(node, ...node.querySelectorAll("*"));
    return node;
  });
  try {
    fn();
  } finally {
    spy.mockRestore();
    cloneSpy.mockRestore();
  }
  return made;
}
