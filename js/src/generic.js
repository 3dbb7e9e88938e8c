// The generic renderer: any game's view as a key/value table, with the legal actions as
// buttons. Used for games without their own renderer and by the tests.
import { createGameWidget } from "./timeline.js";

/** A compact, readable text for one value of a view. */
export function formatValue(value) {
  if (value === null || value === undefined) return "—";
  if (Array.isArray(value)) return `[${value.map(formatValue).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value).map(([k, v]) => `${k}: ${formatValue(v)}`).join(", ")}}`;
  }
  return String(value);
}

/** @param {HTMLElement} boardEl */
export function mountGeneric(boardEl) {
  const wrap = document.createElement("div");
  wrap.className = "tw-generic";
  const table = document.createElement("table");
  const actions = document.createElement("div");
  actions.className = "tw-actions";
  actions.setAttribute("aria-label", "Legal actions");
  wrap.append(table, actions);
  boardEl.append(wrap);
  let ctxNow = null;

  // One listener for every action button, so redraws add none.
  const onClick = (event) => {
    const target = event.target.closest("button[data-action]");
    if (target && ctxNow) ctxNow.play(target.dataset.action);
  };
  actions.addEventListener("click", onClick);

  return {
    update(frame, prev, ctx) {
      ctxNow = ctx;
      const rows = Object.entries(frame.view || {}).map(([key, value]) => {
        const tr = document.createElement("tr");
        const th = document.createElement("th");
        th.scope = "row";
        th.textContent = key;
        const td = document.createElement("td");
        td.textContent = formatValue(value);
        tr.append(th, td);
        return tr;
      });
      table.replaceChildren(...rows);
      const buttons = (ctx.interactive ? ctx.legal : []).map((notation) => {
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.action = notation;
        b.textContent = notation;
        return b;
      });
      actions.replaceChildren(...buttons);
    },
    destroy() {
      actions.removeEventListener("click", onClick);
      wrap.remove();
    },
  };
}

export default createGameWidget({ name: "generic", css: "", mount: mountGeneric });
