"""Gargon players: random and greedy (zero-aware or zero-blind). They see only observations.

* **random** — uniform over the legal options at every decision.
* **greedy** — judges each card by the chance it wins its colour's battle and what capturing it
  is worth. The chance comes from what it can see: which opponents hold the colour (colours are
  public), which of them already put that colour face down, and the values still unseen in that
  colour (its own hand, the captures, the discard and turned-up cards are known). A card's worth
  is its amulets, times the zero multiplier for each zero of that colour it has already captured,
  plus a little towards the colour's majority bonus. It **leads** the play with the best expected
  gain — in practice low, amulet-rich cards in colours that opponents cannot or do not hold —
  **follows** only with cards that are more likely than not to win, and otherwise **passes**,
  drawing three cards while its hand is short and one when it is long, from the pile whose top
  card is of a colour it wants (few opponents hold it, or it is racing for that colour's bonus).
  ``greedy:ignore`` is the same player blind to zeros (a zero is worth nothing to it), for
  restricted-play studies of what a zero is worth; ``greedy`` (``greedy:value``) counts a zero as
  the amulets it would double.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from gamelib.core import ConfigError, Move, Player, random_player
from gamelib.gargon.heuristics import BONUS_PER_CARD, FOLLOW_CHANCE, FUTURE_AMULETS, LOSS_COST
from gamelib.gargon.rules import (
    COLOUR_OF,
    N_CARDS,
    N_COLOURS,
    VALUE_OF,
    DrawFrom,
    GargonObservation,
    Pass,
    Play,
    Resolve,
)
from gamelib.restrict import Option, Options


class GreedyPlayer:
    """Leads cards likely to win, follows only to win, passes and draws wanted colours."""

    def __init__(self, value_zeros: bool = True) -> None:
        self.value_zeros = value_zeros
        self.__name__ = "greedy" if value_zeros else "greedy:ignore"

    def __call__(
        self, observation: GargonObservation, legal: Sequence[Move], rng: random.Random
    ) -> Move:
        """Choose one decision from what this seat may see."""
        obs = observation
        first = legal[0]
        if isinstance(first, Resolve):
            return first
        if isinstance(first, DrawFrom):
            return self._pile(obs, legal)
        plays = [m for m in legal if isinstance(m, Play)]
        passes = [m for m in legal if isinstance(m, Pass)]
        if plays:
            ev = self.card_values(obs)
            best, best_score = None, float("-inf")
            for m in plays:
                score = sum(ev[c][0] for c in m.cards) - 0.01 * sum(VALUE_OF[c] for c in m.cards)
                if passes and any(ev[c][1] < 0.5 for c in m.cards):
                    continue  # follows only with cards likely to win
                if score > best_score:
                    best, best_score = m, score
            if best is not None and (not passes or best_score > 0):
                return best
            if not passes:  # the lead must play: the least bad play
                return max(plays, key=lambda m: sum(ev[c][0] for c in m.cards))
        want = 3 if len(obs.hand) < 8 else 1
        return max(passes, key=lambda m: (m.draws <= want, m.draws))

    def card_values(self, obs: GargonObservation) -> dict[int, tuple[float, float]]:
        """For each card in hand: (expected gain if played now, chance it wins its battle)."""
        cfg = obs.config
        seen = set(obs.hand) | set(obs.discard)
        for caps in obs.captured:
            seen.update(caps)
        if obs.turned_up is not None:
            for t in obs.turned_up:
                seen.update(t)
        unseen: list[list[int]] = [[] for _ in range(N_COLOURS)]
        for c in range(N_CARDS):
            if c not in seen:
                unseen[COLOUR_OF[c]].append(VALUE_OF[c])
        me = obs.seat
        n = len(obs.hand_colours)
        contest = [0.0] * N_COLOURS
        for s in range(n):
            if s == me:
                continue
            on_table = set(obs.table_colours[s])
            held = set(obs.hand_colours[s])
            for col in range(N_COLOURS):
                if col in on_table:
                    contest[col] += 1.0
                elif not obs.acted[s] and col in held:
                    contest[col] += FOLLOW_CHANCE
        mine = [c for c in obs.captured[me]]
        zeros = [0] * N_COLOURS
        amulets = [0.0] * N_COLOURS
        for c in mine:
            col = COLOUR_OF[c]
            zeros[col] += VALUE_OF[c] == 0
            amulets[col] += cfg.amulets[VALUE_OF[c]]
        out = {}
        for c in obs.hand:
            col, v = COLOUR_OF[c], VALUE_OF[c]
            pool = unseen[col]
            below = sum(1 for x in pool if x < v) / len(pool) if pool else 1.0
            p_win = below ** contest[col] if contest[col] else 1.0
            worth = cfg.amulets[v] * cfg.zero_multiplier ** zeros[col] + BONUS_PER_CARD
            if v == 0 and self.value_zeros:
                worth += (amulets[col] + FUTURE_AMULETS) * (cfg.zero_multiplier - 1)
            out[c] = (p_win * worth - (1 - p_win) * LOSS_COST, p_win)
        return out

    def _pile(self, obs: GargonObservation, legal: Sequence[Move]) -> Move:
        """Draw from the pile whose top colour it wants most."""
        n = len(obs.hand_colours)
        me = obs.seat
        mine = [0] * N_COLOURS
        for c in obs.captured[me]:
            mine[COLOUR_OF[c]] += 1

        def want(col: int) -> float:
            free = sum(1 for s in range(n) if s != me and col not in obs.hand_colours[s])
            return free + 0.5 * mine[col]

        def score(m: Move) -> float:
            colours = obs.pile_colours[m.pile]  # type: ignore[attr-defined]
            return want(colours[0]) if colours else float("-inf")

        return max(legal, key=score)


def greedy(zeros: str = "value") -> Player:
    """``greedy`` values zeros; ``greedy:ignore`` is blind to them."""
    if zeros not in ("value", "ignore"):
        raise ConfigError(f"greedy takes 'value' or 'ignore' for zeros, got {zeros!r}")
    return GreedyPlayer(value_zeros=zeros == "value")


def random_() -> Player:
    """The random player."""
    return random_player


def ismcts(spec: str | None = None) -> Player:
    """``ismcts:N[:greedy|random][:C][:cut:K]``: information-set MCTS (``gamelib.gargon.search``),
    its playouts cut off after K rounds with an evaluation backed up; ``ismcts:25ms`` by time
    per decision (:mod:`gamelib.timed`)."""
    from gamelib.gargon.search import ismcts as make  # the search imports the kernel, which
    # imports this module's constants: imported when asked for

    return make(spec)


PLAYERS = {"random": random_, "greedy": greedy, "ismcts": ismcts}


# --- the classes of moves a player can be restricted from or to (gamelib.restrict) ------------


def _leading(view: Any) -> bool:
    """Whether the seat to decide leads the round (an observation or a whole state)."""
    return bool(view.to_move == view.lead)


def _on_table(view: Any) -> set[int]:
    """The colours face down on the table this round."""
    seen = getattr(view, "table_colours", None)
    if seen is not None:
        return {c for t in seen for c in t}
    return {COLOUR_OF[c] for t in view.table for c in t}


def _three(view: Any, legal: Sequence[Move]) -> list[bool]:
    lead = _leading(view)
    return [lead and isinstance(m, Play) and len(m.cards) == 3 for m in legal]


def _three_colours(view: Any, legal: Sequence[Move]) -> list[bool]:
    lead = _leading(view)
    return [
        lead and isinstance(m, Play) and len({COLOUR_OF[c] for c in m.cards}) == 3 for m in legal
    ]


def _pass(view: Any, legal: Sequence[Move]) -> list[bool]:
    return [isinstance(m, Pass) for m in legal]


def _draw_three(view: Any, legal: Sequence[Move]) -> list[bool | None]:
    """Of the passes, those drawing three; a play is no pass (None: kept either way)."""
    return [m.draws == 3 if isinstance(m, Pass) else None for m in legal]


def _new_colour(view: Any, legal: Sequence[Move]) -> list[bool]:
    if _leading(view):
        return [False] * len(legal)
    table = _on_table(view)
    return [isinstance(m, Play) and any(COLOUR_OF[c] not in table for c in m.cards) for m in legal]


#: Gargon's classes of moves in the rules' words; each ``code`` is the class's number in the
#: compiled search (:func:`gamelib.gargon.search.restrict_options` marks the same moves)
OPTIONS = Options(
    {
        "three": Option("leading three cards (shape 2:1 or 1:1:1)", _three, 1),
        "three-colours": Option("leading three colours (shape 1:1:1)", _three_colours, 2),
        "pass": Option("passing (and drawing 1–3 cards) instead of following", _pass, 3),
        "draw-three": Option("drawing three cards when passing (not one or two)", _draw_three, 4),
        "new-colour": Option("following with a colour not yet on the table", _new_colour, 5),
    }
)
