"""Deck the Yard players: random, and greedy with a plug policy.

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
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from gamelib.core import ConfigError, Move, Player, random_player
from gamelib.deck_the_yard.rules import (
    BULB_COLOURS,
    DeckTheYardObservation,
    Discard,
    PlayBubble,
    PlayBulb,
    UsePlug,
)

POLICIES = ("save_for_events", "claim_characters", "protect_strand", "never")


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
        if isinstance(legal[0], UsePlug):
            return UsePlug(self.spend(obs))
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
            if coloured == len(strand) - 1 or obs.pile_left == 0:
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


PLAYERS = {"random": random_, "greedy": greedy}
