import { describe, it, expect, beforeEach, afterEach } from "vitest";
import { morphChildren, widthWatcher } from "../src/dom.js";

// jsdom has no ResizeObserver and lays nothing out: a stand-in observer reports the widths a
// test gives it, and each row counts how often its width is read (each read lays the page out).
let observers;
class FakeResizeObserver {
  constructor(callback) {
    this.callback = callback;
    this.nodes = new Set();
    observers.push(this);
  }
  observe(node) {
    this.nodes.add(node);
  }
  unobserve(node) {
    this.nodes.delete(node);
  }
  disconnect() {
    this.nodes.clear();
  }
  report(node, width) {
    this.callback([{ target: node, contentBoxSize: [{ inlineSize: width }], contentRect: { width } }]);
  }
}

function row(parent, cls, width) {
  const node = document.createElement("div");
  node.className = cls;
  node.reads = 0;
  Object.defineProperty(node, "clientWidth", {
    get() {
      node.reads += 1;
      return width;
    },
  });
  parent.append(node);
  return node;
}

describe("the widths of fanned rows", () => {
  let saved, box, applied;
  beforeEach(() => {
    observers = [];
    saved = globalThis.ResizeObserver;
    globalThis.ResizeObserver = FakeResizeObserver;
    box = document.createElement("div");
    box.className = "mm-eval";
    document.body.append(box);
    applied = [];
  });
  afterEach(() => {
    globalThis.ResizeObserver = saved;
    box.remove();
  });

  it("reads a row's width once per kind: a new row of a kind seen takes its width without laying the page out", () => {
    const fans = widthWatcher((node) => applied.push([node, node._twWidth]));
    const first = row(box, "mm-revealed", 407);
    fans.watch(first);
    expect(first.reads).toBe(1);
    expect(first._twWidth).toBe(407);
    observers[0].report(first, 406.5); // the observer's exact width: not a change of the table's
    expect(applied).toEqual([[first, 406.5]]);
    first.remove();
    observers[0].report(first, 0); // taken out of the page
    // The next oven evaluation's strip: same kind, no read, the width known before any paint.
    const second = row(box, "mm-revealed", 407);
    fans.watch(second);
    expect(second.reads).toBe(0);
    expect(second._twWidth).toBe(406.5);
    // Another kind of row is read once.
    const hand = row(box, "mm-hand-cards", 600);
    fans.watch(hand);
    expect(hand.reads).toBe(1);
    expect(hand._twWidth).toBe(600);
  });

  it("reads again after the table changed width", () => {
    const fans = widthWatcher((node) => applied.push([node, node._twWidth]));
    const hand = row(box, "mm-hand-cards", 600);
    const strip = row(box, "mm-revealed", 400);
    fans.watch(hand);
    fans.watch(strip);
    strip.remove();
    observers[0].report(hand, 500); // the notebook's side panel opened
    expect(hand._twWidth).toBe(500);
    const next = row(box, "mm-revealed", 300);
    fans.watch(next);
    expect(next.reads).toBe(1);
    expect(next._twWidth).toBe(300);
  });

  it("reads nothing without a ResizeObserver", () => {
    globalThis.ResizeObserver = undefined;
    const fans = widthWatcher(() => {});
    const node = row(box, "mm-revealed", 400);
    fans.watch(node);
    expect(node.reads).toBe(0);
    expect(node._twWidth).toBeUndefined();
  });
});

describe("morphChildren", () => {
  it("gives the nodes kept the fresh nodes' attributes and text, and drops the attributes they lack", () => {
    const target = document.createElement("div");
    target.innerHTML = '<span class="mm-a" title="old" data-x="1">old</span><b hidden="">gone</b>';
    const [span] = target.children;
    const fresh = document.createElement("div");
    fresh.innerHTML = '<span class="mm-b" data-x="1" aria-label="new">new</span>';
    morphChildren(target, [...fresh.childNodes]);
    expect(target.firstChild).toBe(span);
    expect(target.innerHTML).toBe(fresh.innerHTML);
    expect(span.getAttributeNames()).toEqual(["class", "data-x", "aria-label"]);
  });
});
