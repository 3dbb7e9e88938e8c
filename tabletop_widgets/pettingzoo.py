"""A PettingZoo AEC environment for every game that provides the learning hooks.

>>> from tabletop_widgets.pettingzoo import env
>>> e = env("mamba", players=2)
>>> e.reset(seed=0)
>>> obs, reward, terminated, truncated, info = e.last()
>>> e.step(int(obs["action_mask"].argmax()))

Agents are ``"player_0"`` … (seat ``i`` is ``"player_i"``); the agent to act is always the
game's ``state.to_move``, which may act several times in a row when the rules say so.

Actions are ``Discrete(len(catalogue))``: index ``i`` is notation ``game.action_catalogue()[i]``.
A game whose actions are a product of parts (``game.action_parts()``, Mamma Mia) is played part
by part instead: index ``i`` is part ``game.action_parts()[i]``, the mask offers the parts that
begin a legal action after those chosen so far (a part every such action shares is taken
without asking), and the action is played once its parts are chosen; the agent to act stays
the same meanwhile.
Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``: the vector is
``game.state_vector(state, seat)`` — by default ``game.observation_vector(state.observe(seat),
seat)``, only what that seat may know; a game may compute the same numbers from its state
directly — followed, for a game played part by part, by one number per part: 1 for the parts
the agent to act has chosen of the action it is making (zeros for every other agent). The mask
marks the legal actions (or parts) of the agent to act (all zeros for every other agent). Legal actions reach their indices through ``game.legal_indices(state)`` with
``game.catalogue_actions()`` (the indices straight from the game's move tables), through
``game.action_indices(actions)`` (the whole list at once) or ``game.action_index(action)`` when
the game has one (no notation written per step), else through their notation.

Rewards come once, when the game ends: +1 to each winner and −1 to each other seat; 0 to all
when every seat wins (a shared result) or nobody does. ``max_steps`` truncates a game after
that many steps with no reward (for a game played part by part each part is a step, so the
cut may fall inside an action). ``reset(seed=s)`` deals the game ``game.new_state(s)``;
``reset()`` deals the seed after the previous one (0 for a new environment), so runs repeat.
An illegal or out-of-range action raises :class:`tw.IllegalAction` and changes nothing.
"""

from __future__ import annotations

import json
import operator
from collections import Counter
from typing import Optional

from ._extras import missing

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper
except ModuleNotFoundError as exc:
    raise missing(exc, "tabletop_widgets.pettingzoo") from None

from .core.errors import IllegalAction
from .core.game import Game, make
from .core.rng import check_seed

RENDER_MODES = ("ansi",)


def env(name, players: Optional[int] = None, render_mode: Optional[str] = None,
        max_steps: Optional[int] = None, **options) -> AECEnv:
    """The AEC environment of game ``name`` (or a ``Game``), wrapped to enforce call order."""
    return _OrderEnforcing(raw_env(name, players=players, render_mode=render_mode,
                                   max_steps=max_steps, **options))


class _OrderEnforcing(OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` whose ``last()`` and ``step()`` — the two calls of
    every step of a learner's loop — go straight to the environment once it has been reset and
    has agents (the base class reaches each attribute they read through ``__getattr__``); before
    that, the base class checks and warns as usual."""

    def last(self, observe: bool = True):
        if not self._has_reset:
            return super().last(observe)
        return self.env.last(observe)

    def step(self, action):
        env = self.env
        if self._has_reset and env.agents:
            self._has_updated = True
            env.step(action)
        else:
            super().step(action)


def _hook(game: Game, what: str):
    try:
        return getattr(game, what)()
    except NotImplementedError as exc:
        raise NotImplementedError(f"no PettingZoo environment for {game.name}: {exc}") from None


_FIRST = operator.itemgetter(0)


class _Decision:
    """An action being chosen part by part: the legal actions whose parts begin with the parts
    chosen so far (``parts[i]`` is the tuple of part indices of ``actions[i]``)."""

    __slots__ = ("actions", "parts", "chosen", "options")

    def __init__(self, actions: list, parts: list):
        self.actions, self.parts, self.chosen = actions, parts, []
        # the first part is always asked, even when only one is legal: every action of the
        # game is at least one step of its agent
        self.options = list(dict.fromkeys(map(_FIRST, parts)))

    def choose(self, part: int):
        """Take ``part`` (one of :attr:`options`), then every part the remaining actions share;
        the action once it is whole, else None (:attr:`options` are then the next parts)."""
        depth = len(self.chosen)
        if len(self.parts) > 1:
            kept = [(a, p) for a, p in zip(self.actions, self.parts) if p[depth] == part]
            self.actions = [a for a, _ in kept]
            self.parts = [p for _, p in kept]
        self.chosen.append(part)
        depth += 1
        while True:
            if len(self.parts) == 1:  # one action left: the rest of its parts are taken
                self.chosen.extend(self.parts[0][depth:])
                return self.actions[0]
            options = list(dict.fromkeys(map(operator.itemgetter(depth), self.parts)))
            if len(options) > 1:
                self.options = options
                return None
            self.chosen.append(options[0])
            depth += 1


class TabletopEnv(AECEnv):
    """The unwrapped environment (``env()`` wraps it in ``OrderEnforcingWrapper``)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "tabletop_widgets", "is_parallelizable": False}

    def __init__(self, name, players: Optional[int] = None, render_mode: Optional[str] = None,
                 max_steps: Optional[int] = None, **options):
        super().__init__()
        if isinstance(name, Game):
            if players is not None and players != name.players or options:
                raise ValueError("give players and options to tw.make(), not to env(), when passing a Game")
            game = name
        else:
            game = make(name, players=players, **options)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None or one of {', '.join(map(repr, RENDER_MODES))}, got {render_mode!r}")
        if max_steps is not None and (isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1):
            raise ValueError(f"max_steps must be None or an int >= 1, got {max_steps!r}")
        # a game whose actions are a product of parts is played part by part
        self._parts_of = getattr(game, "parts_of", None)
        hook = "action_parts" if self._parts_of is not None else "action_catalogue"
        catalogue = tuple(_hook(game, hook))
        if not catalogue or not all(isinstance(a, str) for a in catalogue):
            raise ValueError(f"{game.name}: {hook}() must return a non-empty tuple of notation strings")
        twice = sorted(a for a, n in Counter(catalogue).items() if n > 1)
        if twice:
            raise ValueError(f"{game.name}: {hook}() lists some notations twice: {twice[:5]}")
        size = _hook(game, "observation_size")
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"{game.name}: observation_size() must be an int >= 1, got {size!r}")

        self.game = game
        self.catalogue = catalogue
        self.index_of = {notation: i for i, notation in enumerate(catalogue)}
        # a game may map its legal actions to their indices directly (``game.action_indices``
        # for the whole list, ``game.action_index`` one by one), without writing notations
        self._action_indices = getattr(game, "action_indices", None)
        self._action_index = getattr(game, "action_index", None)
        # or give the legal indices themselves, with the action object of every index
        self._legal_indices_of = getattr(game, "legal_indices", None)
        self._actions_by_index = None
        self._decision = None  # the action being chosen part by part
        self._legal_indices, self._legal_actions = [], []
        if self._parts_of is not None:
            self._action_indices = self._action_index = self._legal_indices_of = None
        elif self._legal_indices_of is not None:
            actions = tuple(game.catalogue_actions())
            if tuple(map(str, actions)) != catalogue:
                raise ValueError(f"{game.name}: catalogue_actions() must write action_catalogue() entry by entry")
            self._actions_by_index = actions
        self.observation_length = size
        self._shape = (size,)
        self._no_legal = np.zeros(len(catalogue), dtype=np.int8)  # copied for every mask
        self._vector = (None, None, None)  # the last (state, seat, vector) observed
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.metadata = dict(self.metadata, name=f"tabletop_widgets/{game.name}")
        self.possible_agents = [f"player_{seat}" for seat in range(game.players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(-np.inf, np.inf, shape=(self._observation_length(),), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(len(catalogue),), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(len(catalogue)) for agent in self.possible_agents}
        self._next_seed = 0
        self.game_state = None
        self.steps = 0

    def _observation_length(self) -> int:
        """The game's vector, then one number per part for a game played part by part."""
        return self.observation_length + (len(self.catalogue) if self._parts_of is not None else 0)

    # spaces ---------------------------------------------------------------------------------
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # the AEC cycle ------------------------------------------------------------------------------
    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
        if seed is not None:
            check_seed(seed)
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + i)
        else:
            seed = self._next_seed
        self._next_seed = seed + 1
        self.seed = seed
        self.game_state = self.game.new_state(seed)
        self.steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._refresh_legal()
        self.agent_selection = self.possible_agents[self.game_state.to_move]

    def observe(self, agent):
        seat = self._seat[agent]
        state = self.game_state
        kept_state, kept_seat, kept = self._vector
        if kept_state is state and kept_seat == seat:
            # the same position again (a part of the same action chosen meanwhile: kept only
            # for a game played part by part, where that is the common case)
            vector = kept.copy()
        else:
            vector = np.asarray(self.game.state_vector(state, seat), dtype=np.float32)
            if vector.shape != self._shape:
                raise ValueError(
                    f"{self.game.name}: observation_vector() gave shape {vector.shape}, "
                    f"observation_size() says ({self.observation_length},)"
                )
            if self._parts_of is not None:
                vector = np.concatenate((vector, np.zeros(len(self.catalogue), dtype=np.float32)))
                self._vector = (state, seat, vector.copy())
        mask = self._no_legal.copy()
        # legal indices are kept only while the agent selected is the seat to move
        if self._legal_indices and agent == self.agent_selection:
            mask.put(self._legal_indices, 1)
            if self._decision is not None and self._decision.chosen:
                vector[[self.observation_length + p for p in self._decision.chosen]] = 1.0
        return {"observation": vector, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        index = self._check_action(action, agent)
        self.steps += 1
        # the rewards (and the agent's cumulative reward) stay the zeros that reset() gave until
        # the step that ends the game, after which every agent is terminated: nothing to clear
        if self._decision is not None:
            chosen = self._decision.choose(index)
            if chosen is None:  # a part: the same agent chooses the next one
                self._offer_parts()
                self._truncate_after_max_steps()
                return
        elif self._legal_actions is None:  # the indices came straight from the game's tables
            chosen = self._actions_by_index[index]
        else:
            chosen = self._legal_actions[self._legal_indices.index(index)]
        self.game_state = self.game_state._apply(chosen)
        if self.game_state.is_over:
            winners = set(self.game_state.winners)
            if winners and len(winners) < self.game.players:
                self.rewards = {a: (1 if self._seat[a] in winners else -1) for a in self.agents}
                self._accumulate_rewards()  # the only rewards: every other step pays 0
            self.terminations = {a: True for a in self.agents}
            self._legal_indices, self._legal_actions, self._decision = [], [], None
        elif self.max_steps is None or not self._truncate_after_max_steps():
            self._refresh_legal()
            self.agent_selection = self.possible_agents[self.game_state.to_move]

    def _truncate_after_max_steps(self) -> bool:
        if self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = {a: True for a in self.agents}
            self._legal_indices, self._legal_actions, self._decision = [], [], None
            return True
        return False

    def _check_action(self, action, agent) -> int:
        try:
            index = operator.index(action)
        except TypeError:
            raise IllegalAction(f"an action is an index into the action catalogue (an int), got {action!r}") from None
        if index not in self._legal_indices:  # a scan of a short list: quicker than building a set
            what = f"{index} ({self.catalogue[index]!r})" if 0 <= index < len(self.catalogue) else f"{index} (out of range)"
            legal = ", ".join(f"{i} ({self.catalogue[i]!r})" for i in self._legal_indices[:8])
            raise IllegalAction(f"action {what} is not legal for {agent} here; legal actions: {legal or 'none'}")
        return index

    @property
    def _legal(self) -> dict:
        """Index → action for the legal actions of the seat to move (a part → None for a game
        played part by part)."""
        actions = self._legal_actions
        if self._decision is not None:
            actions = [None] * len(self._legal_indices)
        elif actions is None:
            actions = map(self._actions_by_index.__getitem__, self._legal_indices)
        return dict(zip(self._legal_indices, actions))

    def _refresh_legal(self):
        """The indices of the legal actions of the seat to move, in order, and the actions
        (None when they are the catalogue's actions of those indices); for a game played part
        by part, the first parts of its legal actions."""
        if self._parts_of is not None:
            actions = self.game_state.legal_actions()
            self._decision = _Decision(actions, self._parts_of(actions))
            self._offer_parts()
            return
        if self._legal_indices_of is not None:
            self._legal_indices = self._legal_indices_of(self.game_state)
            self._legal_actions = None
            return
        actions = self.game_state.legal_actions()
        if self._action_indices is not None:
            indices = self._action_indices(actions)
        elif self._action_index is not None:
            indices = list(map(self._action_index, actions))
        else:
            indices = []
            for action in actions:
                notation = str(action)
                if notation not in self.index_of:
                    raise ValueError(
                        f"{self.game.name}: legal action {notation!r} is missing from action_catalogue()"
                    )
                indices.append(self.index_of[notation])
        self._legal_indices, self._legal_actions = indices, actions

    def _offer_parts(self):
        options = self._decision.options
        self._legal_indices, self._legal_actions = options, None

    # display --------------------------------------------------------------------------------------
    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; use render_mode='ansi'")
            return None
        state = self.game_state
        if state is None:
            return f"{self.game!r}: not dealt yet (call reset())"
        if state.is_over:
            head = f"step {self.steps}: game over, winners {list(state.winners)}, scores {list(state.scores)}"
        else:
            head = f"step {self.steps}: {self.possible_agents[state.to_move]} to move"
            if self._decision is not None and self._decision.chosen:
                head += ", chosen so far: " + "; ".join(self.catalogue[p] for p in self._decision.chosen)
        lines = [f"{self.game!r} seed {self.seed}", head]
        lines += [f"  {event.text}" for event in state.events]
        lines.append(json.dumps(state.observe(None), sort_keys=True))
        return "\n".join(lines)

    def close(self):
        pass


raw_env = TabletopEnv
