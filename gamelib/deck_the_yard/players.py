"""Deck the Yard players: random, greedy with a plug policy, and two search players.

* **random** — uniform over the legal decisions (actions and plug choices alike).
* **greedy** — works on the face-up pattern that its hand and the strand best support: it plays
  the coloured bulb that continues the pattern with the most of its remaining colours in hand;
  it plays a bubble bulb late — only when the bubble completes the strand, or once the draw pile
  is empty; otherwise it discards the card that no face-up pattern needs (the colour the
  patterns want least soon — the strand's next slot counts most — and of those the one it holds
  most copies of). It keeps one bubble, and only as many plugs as its policy can still use
  (events or characters not yet seen); spare plugs and bubbles go first. What plugs are for is
  the **plug policy**, a parameter (``greedy:POLICY``):

  - ``save_for_events`` (default): only against power outages (a blackout costs the hand);
  - ``claim_characters``: claim every character it can; against an event only with 2+ plugs;
  - ``protect_strand``: cancel a broken bulb when the strand holds 2+ bulbs; against an event
    only with 2+ plugs;
  - ``never``: never spend a plug (and discard plugs first).
* **rollout:N** (``rollout:N:POLICY``) — flat Monte-Carlo: each legal decision is played in the
  same ``N`` futures, each a shuffle of the unseen draw pile and pattern deck consistent with the
  observation (later reshuffles drawn in the future too), continued by the greedy player with
  plug policy ``POLICY`` (default ``claim_characters``, the strongest greedy) to the end; it
  takes the decision whose futures claim the most cards, a win counting as one more card. It
  sees only the observation; its search seed is drawn from its ``rng`` at every decision with
  options.
* **oracle** (``oracle:WIDTH``) — **cheats**: it is handed the whole state (``observes =
  "state"``) and knows the draw order, the pattern deck's order and every future reshuffle (the
  chance stream's state). At its first decision it plans the rest of the game by a beam search
  (``WIDTH`` positions a decision, default 64; greedy continuations value them) whose candidates
  include every greedy player's line, then follows the plan, planning again only if the game
  leaves it. Its ``cheats`` attribute is ``True`` and its ``label`` says so, for tables: a bound
  on what any player can reach, not a player.

Both search in compiled code: :mod:`gamelib.deck_the_yard.search`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from gamelib.core import ConfigError, Move, Player, SplitMixRandom, random_player
from gamelib.deck_the_yard.heuristics import POLICIES
from gamelib.deck_the_yard.rules import (
    BULB_COLOURS,
    DeckTheYardObservation,
    DeckTheYardState,
    Discard,
    PlayBubble,
    PlayBulb,
    UsePlug,
)
from gamelib.restrict import Option, Options


class GreedyPlayer:
    """Builds toward the best-supported face-up pattern; spends plugs by its policy."""

    def __init__(self, policy: str = "save_for_events") -> None:
        if policy not in POLICIES:
            raise ConfigError(f"unknown plug policy {policy!r}; policies: {', '.join(POLICIES)}")
        self.policy = policy
        self.__name__ = "greedy" if policy == "save_for_events" else f"greedy:{policy}"

    def __call__(
        self, observation: DeckTheYardObservation, legal: Sequence[Move], rng: random.Random
    ) -> Move:
        """One decision from what the player sees."""
        obs = observation
        if isinstance(legal[0], UsePlug):  # its policy's choice when offered (a restricted
            choice = UsePlug(self.spend(obs))  # player's kept moves may not hold it)
            return choice if choice in legal else legal[0]
        strand = obs.strand
        slot = next((i for i, s in enumerate(strand) if s is None), len(strand))
        hand = list(obs.hand)
        matching = [
            p
            for p in obs.row
            if all(s is None or s == "bubble" or s == c for s, c in zip(strand, p, strict=True))
        ]
        bulbs = [m for m in legal if isinstance(m, PlayBulb)]
        if bulbs:
            return max(bulbs, key=lambda m: self._support(m.colour, slot, matching, hand, strand))
        if PlayBubble() in legal:
            coloured = sum(1 for s in strand[:-1] if s is not None)
            if coloured == len(strand) - 1 or obs.pile_left == 0 or len(legal) == 1:
                return PlayBubble()
        return self._discard(obs, legal, matching, slot)

    def spend(self, obs: DeckTheYardObservation) -> bool:
        """Whether to spend a plug on the card just drawn, by policy."""
        plugs = obs.hand.count("plug")
        kind = obs.pending
        if self.policy == "never":
            return False
        if self.policy == "save_for_events":
            return kind == "event"
        if self.policy == "claim_characters":
            return kind == "character" or (kind == "event" and plugs >= 2)
        bulbs_on_strand = sum(1 for s in obs.strand if s is not None)
        return (kind == "broken" and bulbs_on_strand >= 2) or (kind == "event" and plugs >= 2)

    @staticmethod
    def _support(
        colour: str,
        slot: int,
        matching: Sequence[tuple[str, ...]],
        hand: list[str],
        strand: Sequence[str | None],
    ) -> int:
        """How many of the pattern's remaining bulbs the hand holds, best pattern first."""
        best = 0
        for p in matching:
            if p[slot] != colour:
                continue
            rest = [c for i, c in enumerate(p) if i > slot and strand[i] is None]
            held = hand.copy()
            held.remove(colour)
            have = 0
            for c in rest:
                if c in held:
                    held.remove(c)
                    have += 1
            best = max(best, 1 + have)
        return best

    def _discard(
        self,
        obs: DeckTheYardObservation,
        legal: Sequence[Move],
        matching: Sequence[tuple[str, ...]],
        slot: int,
    ) -> Move:
        # a colour is needed the more, the sooner a face-up pattern wants it: the strand's
        # next slot most, later slots less, patterns the strand has left behind least
        need: dict[str, float] = dict.fromkeys(BULB_COLOURS, 0.0)
        for p in obs.row:
            on_track = p in matching
            for j, c in enumerate(p):
                if on_track and j >= slot and obs.strand[j] is None:
                    need[c] += 1.0 / (1 + j - slot)
                elif not on_track:
                    need[c] += 0.3 / (1 + j)
        hand = list(obs.hand)
        cfg = obs.config
        events_left = cfg.events - obs.discard.count("event")
        characters_left = cfg.characters - obs.discard.count("character")
        characters_left -= obs.claimed_characters
        useful_plugs = {
            "never": 0,
            "save_for_events": min(1, events_left),
            "claim_characters": min(2, characters_left + min(1, events_left)),
            "protect_strand": 1,
        }[self.policy]

        def keep(m: Move) -> tuple[float, int]:
            kind = m.kind  # type: ignore[attr-defined]
            copies = hand.count(kind)
            if kind == "plug":  # plugs beyond what the policy can use only clog the hand
                return (100.0 if copies <= useful_plugs else -1.0, 0)
            if kind == "bubble":  # one bubble is enough for a strand
                return (50.0 if copies == 1 else 0.05, 0)
            return (need.get(kind, 0.0), -copies)

        discards = [m for m in legal if isinstance(m, Discard)]
        return min(discards, key=keep)


def greedy(policy: str = "save_for_events") -> Player:
    """``greedy`` or ``greedy:POLICY`` (save_for_events, claim_characters, protect_strand,
    never)."""
    return GreedyPlayer(policy)


def random_() -> Player:
    """The random player."""
    return random_player


MAX_FUTURES = 1_000_000
MAX_WIDTH = 4096


def _positive(text: str, what: str, spec: str, limit: int) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not text.strip().isdigit() or not 1 <= value <= limit:
        raise ConfigError(
            f"{spec!r}: {what} must be a whole number from 1 to {limit}, got {text!r}"
        )
    return value


class RolloutPlayer:
    """Flat Monte-Carlo over each legal decision, with greedy continuations (see the module
    docstring)."""

    #: it looks ahead through its own later decisions, which a restriction cannot reach
    searches = True

    def __init__(self, n_futures: int, policy: str = "claim_characters") -> None:
        if policy not in POLICIES:
            raise ConfigError(f"unknown plug policy {policy!r}; policies: {', '.join(POLICIES)}")
        if not isinstance(n_futures, int) or not 1 <= n_futures <= MAX_FUTURES:
            raise ConfigError(f"rollout needs 1 to {MAX_FUTURES} futures, got {n_futures!r}")
        self.n_futures = n_futures
        self.policy = policy
        self.__name__ = f"rollout:{n_futures}" + (
            "" if policy == "claim_characters" else f":{policy}"
        )

    def __call__(
        self, observation: DeckTheYardObservation, legal: Sequence[Move], rng: random.Random
    ) -> Move:
        """One decision from the observation alone (a forced one draws no random number)."""
        if len(legal) == 1:
            return legal[0]
        from gamelib.deck_the_yard import kernel, search

        if not isinstance(observation, DeckTheYardObservation):
            raise ConfigError(
                f"{self.__name__} plays from a DeckTheYardObservation, got "
                f"{type(observation).__name__}"
            )
        t = kernel.tables(observation.config)
        b = search.belief_from_observation(t, observation)
        seed = rng.getrandbits(63)
        d = search.rollout_decide(t, b, seed, self.n_futures, POLICIES.index(self.policy))
        move = kernel.reference_move(int(d))
        if move not in legal:  # the belief's options are the observation's: a bug if not
            raise RuntimeError(f"{self.__name__} chose {move!r}, not among {list(legal)}")
        return move


class OraclePlayer:
    """The cheating planner: sees the whole state, plans by beam search (module docstring)."""

    #: it looks ahead through its own later decisions, which a restriction cannot reach
    searches = True

    observes = "state"
    cheats = True

    def __init__(self, width: int = 64) -> None:
        if not isinstance(width, int) or not 1 <= width <= MAX_WIDTH:
            raise ConfigError(f"the oracle's beam width must be 1 to {MAX_WIDTH}, got {width!r}")
        self.width = width
        self.__name__ = "oracle" if width == 64 else f"oracle:{width}"
        self.label = f"{self.__name__} (cheats: sees the draw order and future reshuffles)"
        """The name to print in tables: it says the player cheats."""
        # the plan being followed: its decisions, the next one's index, and the position (and
        # chance stream) the plan expects before it
        self._plan: list[int] = []
        self._at = 0
        self._expect: tuple[Any, int] | None = None
        self.plans = 0  # searches made (one per game unless the game leaves a plan)
        self.planned: tuple[int, int] | None = None  # the last plan's (won, claimed)

    def __call__(self, observation: Any, legal: Sequence[Move], rng: random.Random) -> Move:
        """The plan's next decision (planning first if there is no plan for this position);
        ``observation`` is a clone of the whole state."""
        from gamelib.deck_the_yard import kernel, search

        state = observation

        if not isinstance(state, DeckTheYardState):
            raise ConfigError(
                f"{self.__name__} cheats: it needs the whole DeckTheYardState (observes='state'),"
                f" got {type(state).__name__}"
            )
        t, st = kernel.from_reference(state)
        chance_rng = getattr(state.chance, "_rng", None)
        # a replayed game has no stream to read: the plan then guesses later reshuffles and is
        # made again whenever a reshuffle differs
        chance = chance_rng.getstate()[1] if isinstance(chance_rng, SplitMixRandom) else 0
        follow = (
            self._expect is not None
            and self._at < len(self._plan)
            and self._expect[1] == chance
            and bool(search.same_position(t, self._expect[0], st))
        )
        if not follow:
            plan, won, claimed = search.oracle_plan(
                t, st, np.uint64(chance), self.width, POLICIES.index("claim_characters")
            )
            self._plan, self._at = [int(d) for d in plan], 0
            self.planned = (int(won), int(claimed))
            self.plans += 1
        d = self._plan[self._at]
        self._at += 1
        move = kernel.reference_move(d)
        if move not in legal:
            raise RuntimeError(f"{self.__name__} planned {move!r}, not among {list(legal)}")
        nxt = st.copy()
        rs = np.zeros(2, np.uint64)
        rs[0] = np.uint64(chance)
        kernel.apply(t, nxt, d, rs, np.zeros(0, np.int64), kernel.new_work(t))
        self._expect = (nxt, int(rs[0]))
        return move


def rollout(arg: str | None = None) -> Player:
    """``rollout:N`` or ``rollout:N:POLICY``: flat Monte-Carlo with N futures per decision;
    ``rollout:25ms`` by time per decision (:mod:`gamelib.timed`)."""
    spec = "rollout" if arg is None else f"rollout:{arg}"
    if arg is None:
        raise ConfigError(
            "rollout needs the number of futures per decision, e.g. rollout:50 "
            "(or rollout:50:POLICY for the greedy continuation's plug policy)"
        )
    n, _, policy = arg.partition(":")
    futures = _positive(n, "the number of futures per decision", spec, MAX_FUTURES)
    if policy and policy not in POLICIES:
        raise ConfigError(
            f"{spec!r}: unknown plug policy {policy!r} for the greedy continuation; "
            f"policies: {', '.join(POLICIES)}"
        )
    return RolloutPlayer(futures, policy or "claim_characters")


def oracle(arg: str | None = None) -> Player:
    """``oracle`` or ``oracle:WIDTH``: the cheating planner (beam width, default 64)."""
    if arg is None:
        return OraclePlayer()
    return OraclePlayer(_positive(arg, "the beam width", f"oracle:{arg}", MAX_WIDTH))


PLAYERS = {"random": random_, "greedy": greedy, "rollout": rollout, "oracle": oracle}


# --- the classes of moves a player can be restricted from or to (gamelib.restrict) ------------


def _pending(view: Any) -> str | None:
    """The kind of card the refill just drew and a plug may be spent on (None: none)."""
    p = view.pending
    return p if p is None or isinstance(p, str) else view.kind[p]


def _plug_on(kind: str) -> Any:
    def marks(view: Any, legal: Sequence[Move]) -> list[bool]:
        on = _pending(view) == kind
        return [on and isinstance(m, UsePlug) and m.use for m in legal]

    return marks


def _of(kind: type) -> Any:
    def marks(view: Any, legal: Sequence[Move]) -> list[bool]:
        return [isinstance(m, kind) for m in legal]

    return marks


#: Deck the Yard's classes of moves in the rules' words
OPTIONS = Options(
    {
        "plug-event": Option("spending a plug on an event (a power outage)", _plug_on("event")),
        "plug-character": Option(
            "spending a plug on a character (to claim it)", _plug_on("character")
        ),
        "plug-broken": Option(
            "spending a plug on a broken bulb (to cancel it)", _plug_on("broken")
        ),
        "bubble": Option("playing a bubble bulb", _of(PlayBubble)),
        "discard": Option("discarding a card as the turn's action", _of(Discard)),
    }
)
