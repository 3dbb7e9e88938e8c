/**
 * A stand-in for the anywidget model, shared by every display rendered from it: it holds the
 * traits given, tells listeners of `change:<trait>` and `msg:custom`, and records what the
 * widget sends and how often it saves.
 */
export function fakeModel(values) {
  const handlers = new Map();
  const model = {
    sent: [],
    saves: 0,
    get: (key) => values[key],
    set(key, value) {
      values[key] = value;
      model.emit(`change:${key}`);
    },
    on(name, fn) {
      handlers.set(name, [...(handlers.get(name) || []), fn]);
    },
    off(name, fn) {
      handlers.set(name, (handlers.get(name) || []).filter((f) => f !== fn));
    },
    send(msg) {
      model.sent.push(msg);
    },
    save_changes() {
      model.saves += 1;
    },
    emit(name, ...args) {
      (handlers.get(name) || []).slice().forEach((fn) => fn(...args));
    },
    /** A custom message from the kernel. */
    deliver(msg) {
      model.emit("msg:custom", msg, []);
    },
    listenerCount: () => [...handlers.values()].reduce((n, list) => n + list.length, 0),
  };
  return model;
}
