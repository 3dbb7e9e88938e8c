import { vi } from "vitest";

/** The elements `fn` creates (built, whether or not they stay in the page). */
export function created(fn) {
  const made = [];
  const make = document.createElement.bind(document);
  const spy = vi.spyOn(document, "createElement").mockImplementation((tag, opts) => {
    const node = make(tag, opts);
    made.push(node);
    return node;
  });
  try {
    fn();
  } finally {
    spy.mockRestore();
  }
  return made;
}
