"""A PettingZoo AEC environment for every game that provides the learning hooks.

>>> from tabletop_widgets.pettingzoo import env
>>> e = env("mamba", players=2)
>>> e.reset(seed=0)
>>> obs, reward, terminated, truncated, info = e.last()
>>> e.step(int(obs["action_mask"].argmax()))

Agents are ``"player_0"`` … (seat ``i`` is ``"player_i"``); the agent to act is always the
game's ``state.to_move``, which may act several times in a row when the rules say so.

Actions are ``Discrete(len(catalogue))``: index ``i`` is notation ``game.action_catalogue()[i]``.
Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``: the vector is
``game.state_vector(state, seat)`` — by default ``game.observation_vector(state.observe(seat),
seat)``, only what that seat may know; a game may compute the same numbers from its state
directly — and the mask marks the legal actions of the agent to act (all zeros for every
other agent). Legal actions reach their indices through ``game.legal_indices(state)`` with
``game.catalogue_actions()`` (the indices straight from the game's move tables), through
``game.action_indices(actions)`` (the whole list at once) or ``game.action_index(action)`` when
the game has one (no notation written per step), else through their notation.

Rewards come once, when the game ends: +1 to each winner and −1 to each other seat; 0 to all
when every seat wins (a shared result) or nobody does. ``max_steps`` truncates a game after
that many actions with no reward. ``reset(seed=s)`` deals the game ``game.new_state(s)``;
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
        catalogue = tuple(_hook(game, "action_catalogue"))
        if not catalogue or not all(isinstance(a, str) for a in catalogue):
            raise ValueError(f"{game.name}: action_catalogue() must return a non-empty tuple of notation strings")
        twice = sorted(a for a, n in Counter(catalogue).items() if n > 1)
        if twice:
            raise ValueError(f"{game.name}: action_catalogue() lists some notations twice: {twice[:5]}")
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
        if self._legal_indices_of is not None:
            actions = tuple(game.catalogue_actions())
            if tuple(map(str, actions)) != catalogue:
                raise ValueError(f"{game.name}: catalogue_actions() must write action_catalogue() entry by entry")
            self._actions_by_index = actions
        self.observation_length = size
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.metadata = dict(self.metadata, name=f"tabletop_widgets/{game.name}")
        self.possible_agents = [f"player_{seat}" for seat in range(game.players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(-np.inf, np.inf, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(len(catalogue),), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(len(catalogue)) for agent in self.possible_agents}
        self._next_seed = 0
        self.game_state = None
        self.steps = 0

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
        vector = np.asarray(self.game.state_vector(state, seat), dtype=np.float32)
        if vector.shape != (self.observation_length,):
            raise ValueError(
                f"{self.game.name}: observation_vector() gave shape {vector.shape}, "
                f"observation_size() says ({self.observation_length},)"
            )
        mask = np.zeros(len(self.catalogue), dtype=np.int8)
        if seat == state.to_move and self._legal:
            mask[self._legal_indices] = 1
        return {"observation": vector, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        index = self._check_action(action, agent)
        self.game_state = self.game_state._apply(self._legal[index])
        self.steps += 1
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0)
        if self.game_state.is_over:
            winners = set(self.game_state.winners)
            if winners and len(winners) < self.game.players:
                self.rewards = {a: (1 if self._seat[a] in winners else -1) for a in self.agents}
                self._accumulate_rewards()  # the only rewards: every other step pays 0
            self.terminations = {a: True for a in self.agents}
            self._legal, self._legal_indices = {}, []
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = {a: True for a in self.agents}
            self._legal, self._legal_indices = {}, []
        else:
            self._refresh_legal()
            self.agent_selection = self.possible_agents[self.game_state.to_move]

    def _check_action(self, action, agent) -> int:
        try:
            index = operator.index(action)
        except TypeError:
            raise IllegalAction(f"an action is an index into the action catalogue (an int), got {action!r}") from None
        if index not in self._legal:
            what = f"{index} ({self.catalogue[index]!r})" if 0 <= index < len(self.catalogue) else f"{index} (out of range)"
            legal = ", ".join(f"{i} ({self.catalogue[i]!r})" for i in list(self._legal)[:8])
            raise IllegalAction(f"action {what} is not legal for {agent} here; legal actions: {legal or 'none'}")
        return index

    def _refresh_legal(self):
        """Index → action for the legal actions of the seat to move (and their indices, in order)."""
        if self._legal_indices_of is not None:
            indices = self._legal_indices_of(self.game_state)
            self._legal = dict(zip(indices, map(self._actions_by_index.__getitem__, indices)))
            self._legal_indices = indices
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
        self._legal = dict(zip(indices, actions))
        self._legal_indices = indices

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
        lines = [f"{self.game!r} seed {self.seed}", head]
        lines += [f"  {event.text}" for event in state.events]
        lines.append(json.dumps(state.observe(None), sort_keys=True))
        return "\n".join(lines)

    def close(self):
        pass


raw_env = TabletopEnv
