"""Bots for Mamma Mia! (both editions). They see only ``state.observe(seat)`` and the legal actions."""

from __future__ import annotations

from tabletop_widgets.core.bots import Bot, register_bot

from .rules import Ask, Help, Make, Refuse, Restock, SendBack, Turn

# cards an order already in the oven is expected to take from the cards before it
_EXPECTED_USE = 1
_JOKER = {"monotoni": 6, "ciottona": 4, "small_monotoni": 5, "pizza_mamma_mia": 5}


class Chef(Bot):
    """Counts the public oven log: plays an order once the oven (with this turn's ingredients
    and what its hand can still add) is likely to hold it, feeds the oven the kinds its own
    orders need, draws orders when it has none, makes every pizza it can and always helps."""

    use = _EXPECTED_USE
    keep_orders = 2
    order_bonus, order_slope = 4.0, 1.5
    feed = 0.2

    def choose(self, observation, legal_actions):
        if len(legal_actions) == 1:
            return legal_actions[0]
        first = legal_actions[0]
        if isinstance(first, (Turn, Restock)):
            return self._turn(observation, legal_actions)
        if isinstance(first, (Help, Refuse)):
            return next((a for a in legal_actions if isinstance(a, Help)), first)
        return self._settle(legal_actions)

    # the evaluation -------------------------------------------------------------------------
    @staticmethod
    def _cards(text):
        return sum(int(part.split(" ", 1)[0]) for part in text.split(" + ")) if text else 0

    def _settle(self, legal):
        makes = [a for a in legal if isinstance(a, Make)]
        free = [a for a in makes if a.add is None]
        if free:
            return free[0]
        if makes:
            return min(makes, key=lambda a: self._cards(a.add))
        asks = [a for a in legal if isinstance(a, Ask)]
        if asks:
            return min(asks, key=lambda a: self._cards(a.cards))
        return next(a for a in legal if isinstance(a, SendBack))

    # a turn -----------------------------------------------------------------------------------
    def _turn(self, obs, legal):
        kinds = obs["kinds"]
        me = obs["to_move"]
        personal = obs["personal"][me]
        oven = dict.fromkeys(kinds, 0)
        orders_in_oven = 0
        for entry in obs["oven"]["log"]:
            if "kind" in entry:
                oven[entry["kind"]] += entry["count"]
            else:
                orders_in_oven += 1
        total = sum(oven.values())
        # what earlier orders will probably eat, spread over the kinds in proportion
        eaten = min(total, orders_in_oven * self.use)
        avail = {k: oven[k] - (eaten * oven[k] / total if total else 0) for k in kinds}
        hand = obs["hand"]["ingredients"]
        orders = {o["label"]: o for o in obs["hand"]["orders"]}
        waiter = obs["players"][me]["waiter"]

        def needs(order, extra):
            """The cards ``order`` needs (its best joker) given the oven plus ``extra``."""
            have = {k: avail[k] + extra.get(k, 0) for k in kinds}
            t = order["type"]
            base = dict(order["recipe"])
            if t in ("normal", "mini"):
                if order.get("crossed") and oven[order["crossed"]] + extra.get(order["crossed"], 0):
                    return None
                return base
            if t == "bombastica":
                return {"*": 15}
            if t == "minimale":
                # the joker depends on the table at its reveal: count on a thin kind of the oven
                present = [k for k in kinds if oven[k] + extra.get(k, 0) and k not in base]
                if not present:
                    return None
                thin = min(present, key=lambda k: have[k])
                return dict(base, **{thin: max(have[thin], 0) + 1})
            if t == "small_monotoni" and oven[order["crossed"]] + extra.get(order["crossed"], 0):
                return None
            options = order["choices"] or [k for k in kinds if k != personal and k != order.get("crossed")]
            if t == "ciottona":
                best = sorted(options, key=lambda k: -(have[k] + hand.get(k, 0)))[:2]
                return dict(base, **{best[0]: 4, best[1]: 4})
            best = max(options, key=lambda k: have[k] + hand.get(k, 0))
            out = dict(base)
            out[best] = out.get(best, 0) + _JOKER[t]
            return out

        def deficit(need, extra, spare):
            """Cards missing after the oven (and ``extra``) that ``spare`` (the hand) cannot add."""
            if need is None:
                return 99
            if "*" in need:
                have = total - eaten + sum(extra.values())
                short = max(0, 15 - have)
                return max(0, short - sum(spare.values())) + (short > 0)
            miss = 0
            for k, n in need.items():
                lack = n - avail[k] - extra.get(k, 0)
                if lack > 0:
                    lack = max(0.0, lack - spare.get(k, 0))
                    miss += lack
            return miss

        best, best_score = None, None
        for action in legal:
            if isinstance(action, Restock):
                return action
            extra = {action.kind: action.count} if action.count else {}
            spare = dict(hand)
            if action.count:
                spare[action.kind] -= action.count
            score = 0.0
            if action.order is not None:
                d = deficit(needs(orders[action.order], extra), extra, spare)
                score += self.order_bonus - self.order_slope * min(d, 6)  # a failed order only goes back under the waiter
            # feed the oven with what the orders kept in hand need
            wanted = {}
            for label, order in orders.items():
                if label == action.order:
                    continue
                need = needs(order, {})
                if need and "*" not in need:
                    for k, n in need.items():
                        wanted[k] = max(wanted.get(k, 0), n - max(0, avail[k]))
            if action.count:
                if action.kind in wanted:
                    useful = min(action.count, max(0, wanted[action.kind]))
                    score += 0.8 * useful - 0.3 * (action.count - useful)
                else:
                    score += self.feed * action.count  # cards no order needs: feed the oven, cycle the hand
            # orders: keep two in hand; draw from the waiter when fewer are left
            left = len(orders) - (action.order is not None)
            if action.source == "waiter":
                score += 2.0 if left < self.keep_orders and waiter else -1.0
            if action.draw is not None or (action.source is None and not action.count and action.order is None):
                score -= 0.5  # short draws and passes only slow the bot down
            if best_score is None or score > best_score:
                best, best_score = action, score
        return best


register_bot("mamma-mia", "chef", Chef)
register_bot("mamma-mia-plus", "chef", Chef)
