"""Typed errors of the engines and the timeline."""


class IllegalAction(ValueError):
    """An action that is not legal in the state it was applied to.

    The message says why and lists a few legal actions; the state is unchanged.
    """


class ReplayError(ValueError):
    """A replay that cannot be loaded: malformed, tampered with, or naming an illegal step."""

    def __init__(self, message, step=None):
        super().__init__(message)
        self.step = step


def quote(value, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters, for quoting untrusted input in a message.

    Written without recursion and stopping at ``limit``: a value from a browser or a replay
    may be nested thousands deep (where ``repr`` raises ``RecursionError``) or megabytes long.
    """
    out: list[str] = []
    size = 0
    todo: list = [value]  # values still to write, and literal text (_Text) between them
    while todo and size <= limit:
        item = todo.pop()
        if isinstance(item, _Text):
            piece = item
        elif isinstance(item, (list, tuple, dict)):
            if isinstance(item, dict):
                opening, closing = "{", "}"
                parts = []
                for n, (k, v) in enumerate(item.items()):
                    if n:
                        parts.append(_Text(", "))
                    parts += [k, _Text(": "), v]
                    if n > limit:  # the rest cannot be shown anyway
                        break
            else:
                opening, closing = ("[", "]") if isinstance(item, list) else ("(", ")")
                parts = []
                for n, v in enumerate(item[: limit + 1]):
                    if n:
                        parts.append(_Text(", "))
                    parts.append(v)
                if isinstance(item, tuple) and len(item) == 1:
                    parts.append(_Text(","))
            todo.append(_Text(closing))
            todo.extend(reversed(parts))
            piece = opening
        elif isinstance(item, str):
            piece = repr(item[: limit + 1])
        else:
            try:
                piece = repr(item)
            except Exception:  # a repr that fails says nothing useful: name the type
                piece = f"<{type(item).__name__}>"
        out.append(piece)
        size += len(piece)
    text = "".join(out)
    return text if len(text) <= limit and not todo else text[:limit] + "…"


class _Text(str):
    """Literal text inside :func:`quote`'s work list (not a value to quote)."""
