"""Playtest a rule set by hand in JupyterLab (:func:`play`, :class:`Playtest`): the picture of
what your seat may see, the legal decisions as buttons in the rules' words
(:func:`~gamelib.widgets.playtest.describe`),
seeded opponents, and the game's record to download, checked by :func:`gamelib.records.replay`."""

from __future__ import annotations

import base64
import html
import json
import random
from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from gamelib.core import (
    ConfigError,
    Move,
    Outcome,
    Player,
    Seat,
    State,
    check_seed,
    game_rngs,
)
from gamelib.records import play_game, replay
from gamelib.sim import game_of, n_seats

__all__ = ["Playtest", "describe", "play"]


HUMAN = "human"


def play(
    config: Any,
    opponents: Sequence[str] = (),
    *,
    seat: int = 0,
    seed: int | None = None,
) -> Playtest:
    """Play one game of ``config`` by hand from ``seat`` against built-in ``opponents`` (names
    as in the game's players, e.g. ``"greedy"``, ``"ismcts:50"``; none for Deck the Yard).
    ``seed`` fixes the deal and the opponents' streams (a fresh one is drawn when omitted and
    shown, so a game can be played again)."""
    return Playtest(config, opponents, seat=seat, seed=seed)


class Playtest:
    """A game played by hand (see :func:`play`).  ``state`` is the position; ``buttons`` the
    legal decisions as buttons (each with its ``move``); in Gargon the hand's cards are
    ``hand_toggles`` and ``play_button`` plays the selected ones; ``picture`` shows what the
    seat may see; ``record`` is the game's record once it is over."""

    def __init__(
        self, config: Any, opponents: Sequence[str] = (), *, seat: int = 0, seed: int | None = None
    ) -> None:
        self.game = game_of(config)
        n = n_seats(config)
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            raise ConfigError(f"opponents must be a list of player names, got {opponents!r}")
        if len(opponents) != n - 1:
            raise ConfigError(
                f"this {self.game.name} game has {n} seats: give {n - 1} opponent(s), "
                f"got {len(opponents)}: {list(opponents)}"
            )
        bad = [p for p in opponents if not isinstance(p, str)]
        if bad:
            raise ConfigError(f"opponents are player names (text), got {bad!r}")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise ConfigError(f"seat must be one of 0..{n - 1}, got {seat!r}")
        self.seed = check_seed(random.SystemRandom().getrandbits(63) if seed is None else seed)
        self.config = config
        self.seat: Seat = seat
        others = iter(opponents)
        self.players: list[str] = [HUMAN if s == seat else next(others) for s in range(n)]
        self.agents: dict[Seat, Player] = {
            s: self.game.player(p) for s, p in enumerate(self.players) if s != seat
        }
        chance, self.rngs = game_rngs(self.seed, n)
        self.state: State = self.game.new_state(config, chance)
        self.moves: list[tuple[Seat, Move]] = []
        self.log: list[str] = []
        self.record: dict[str, Any] | None = None
        self.replayed: Outcome | None = None

        self.title = w.HTML()
        self.picture = w.HTML()
        self.prompt = w.HTML()
        self.buttons: list[Any] = []
        self.button_box = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.hand_toggles: list[Any] = []
        self.hand_box = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.play_button = w.Button(description="play the selected cards", disabled=True)
        self.play_button.on_click(lambda _: self._play_selected())
        self.log_html = w.HTML()
        self.download = w.HTML()
        self.record_text = w.Textarea(layout=w.Layout(width="100%", height="6em"))
        self.end_box = w.VBox()
        self.widget = w.VBox(
            [
                self.title,
                self.picture,
                self.prompt,
                self.hand_box,
                self.button_box,
                self.end_box,
                w.Accordion([self.log_html], titles=("moves so far",)),
            ]
        )
        self.widget.add_class("gamelib-playtest")
        self._advance()
        self._refresh()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    # -- moving --
    def choose(self, move: Move) -> None:
        """Make the human's decision ``move`` (what each button does), then let the opponents
        move until it is the human's turn again or the game is over."""
        st = self.state
        if st.is_over() or st.current_player() != self.seat:
            raise ConfigError("it is not your turn")
        if move not in st.legal_moves():
            raise ConfigError(f"{move!r} is not a legal decision now")
        self._apply(self.seat, move)
        self._advance()
        self._refresh()

    def _apply(self, seat: Seat, move: Move) -> None:
        who = "you" if seat == self.seat else f"seat {seat} ({self.players[seat]})"
        self.log.append(f"{who}: {describe(self.state, move, seat, self.seat)}")
        self.state.apply(move)
        self.moves.append((seat, move))

    def _advance(self) -> None:
        """The opponents' decisions, each from its observation and its own seeded stream."""
        st = self.state
        while not st.is_over() and st.current_player() != self.seat:
            s = st.current_player()
            agent = self.agents[s]
            look = getattr(agent, "observes", True)
            obs = st.clone() if look == "state" else st.observation(s) if look else None
            self._apply(s, agent(obs, st.legal_moves(), self.rngs[s]))
        if st.is_over() and self.record is None:
            self._finish()

    def _play_selected(self) -> None:
        from gamelib.gargon.rules import Play

        self.choose(Play(tuple(sorted(self._selected_cards()))))

    def _selected_cards(self) -> list[int]:
        return [t.card for t in self.hand_toggles if t.value]

    # -- what the human sees --
    def view(self, state: State | None = None) -> dict[str, Any]:
        """Everything the widget shows of ``state`` (default: the game's), built from the
        human seat's observation: the picture, the prompt and the decisions offered."""
        st = self.state if state is None else state
        obs = st.observation(self.seat)
        picture = _svg(self.game.name, obs)
        mine = not st.is_over() and st.current_player() == self.seat
        legal = st.legal_moves() if mine else []
        cards: list[tuple[int, str]] = []
        options = []
        for m in legal:
            if type(m).__name__ == "Play":
                continue
            options.append((m, describe(st, m, self.seat, self.seat)))
        if mine and self.game.name == "gargon":
            from gamelib.gargon.rules import COLOUR_OF, COLOURS, VALUE_OF

            cards = [(c, f"{COLOURS[COLOUR_OF[c]]} {VALUE_OF[c]}") for c in obs.hand]
        if st.is_over():
            prompt = "<b>The game is over.</b> " + _result_text(st.outcome(), self.seat)
        elif mine:
            prompt = f"<b>Your decision</b> (seat {self.seat}): {_decision_text(st)}"
        else:  # pragma: no cover - the opponents move before the widget shows
            prompt = f"seat {st.current_player()} to move"
        return {"picture": picture, "prompt": prompt, "options": options, "cards": cards}

    def _refresh(self) -> None:
        st = self.state
        v = self.view()
        self.title.value = f"<b>{self.game.name}</b> · seed {self.seed} · seats: " + ", ".join(
            f"{s}: {p}" for s, p in enumerate(self.players)
        )
        self.picture.value = v["picture"]
        self.prompt.value = v["prompt"]
        self.buttons = []
        for move, label in v["options"]:
            b = w.Button(description=label, layout=w.Layout(width="auto"))
            b.move = move
            b.on_click(lambda _, m=move: self.choose(m))
            b.add_class("gamelib-move")
            self.buttons.append(b)
        self.button_box.children = self.buttons
        self.hand_toggles = []
        for c, label in v["cards"]:
            t = w.ToggleButton(description=label, value=False, layout=w.Layout(width="auto"))
            t.card = c
            t.observe(lambda _: self._update_play_button(), names="value")
            self.hand_toggles.append(t)
        shown = [*self.hand_toggles, self.play_button] if self.hand_toggles else []
        self.hand_box.children = shown
        self._update_play_button()
        self.log_html.value = "<br>".join(html.escape(x) for x in self.log[-200:])
        if st.is_over():
            self._show_end()

    def _update_play_button(self) -> None:
        if not self.hand_toggles:
            self.play_button.disabled = True
            return
        from gamelib.gargon.rules import COLOUR_OF, COLOURS, VALUE_OF, Play

        chosen = tuple(sorted(self._selected_cards()))
        legal = Play(chosen) in self.state.legal_moves() if chosen else False
        words = " + ".join(f"{COLOURS[COLOUR_OF[c]]} {VALUE_OF[c]}" for c in chosen)
        self.play_button.disabled = not legal
        self.play_button.description = (
            "select cards to play"
            if not chosen
            else f"play {words}"
            if legal
            else f"{words}: not a legal play"
        )

    # -- the end: the record, downloadable, and its replay check --
    def _finish(self) -> None:
        """Build the game's record through :func:`play_game` (the human's decisions scripted,
        the opponents deciding again from their seeded streams) and check it replays."""
        mine = iter(m for s, m in self.moves if s == self.seat)

        def human(observation: Any, legal: Sequence[Move], rng: random.Random) -> Move:
            return next(mine)

        human.observes = False  # type: ignore[attr-defined]
        lineup: list[Any] = [human if p == HUMAN else p for p in self.players]
        again = play_game(self.game, self.config, lineup, self.seed, record=True, engine="python")
        if again.outcome != self.state.outcome():  # pragma: no cover - a bug, not bad input
            raise AssertionError("the recorded game differs from the game played; please report")
        assert again.record is not None
        self.record = again.record
        self.replayed = replay(again.record).outcome

    def _show_end(self) -> None:
        assert self.record is not None
        text = json.dumps(self.record)
        same = self.replayed == self.state.outcome()
        name = f"{self.game.name}-seed{self.seed}.json"
        data = base64.b64encode(text.encode()).decode()
        self.download.value = (
            f'<a download="{name}" href="data:application/json;base64,{data}">'
            f"download the record ({name})</a> · "
            + (
                f"replay check: the record replays move by move ({len(self.moves)} decisions) "
                "to the same outcome ✓"
                if same
                else "<b>replay check failed</b>"
            )
        )
        self.record_text.value = text
        self.end_box.children = [self.download, self.record_text]


def _svg(game: str, obs: Any) -> str:
    if game == "garner":
        from gamelib.garner.picture import svg as garner_svg

        return garner_svg(obs)
    if game == "gargon":
        from gamelib.gargon.picture import svg as gargon_svg

        return gargon_svg(obs)
    from gamelib.deck_the_yard.picture import svg as yard_svg

    return yard_svg(obs)


def _result_text(out: Outcome, seat: Seat) -> str:
    scores = ", ".join(f"{s:g}" for s in out.scores)
    if len(out.scores) == 1:
        verdict = "You win!" if out.winners else "You lose."
        return f"{verdict} ({out.reason}, {out.turns} turns)"
    if not out.winners:
        verdict = "A draw."
    elif seat in out.winners:
        verdict = "You win!" if len(out.winners) == 1 else "You share the win."
    else:
        seats = ", ".join(map(str, out.winners))
        verdict = (
            f"Seat {seats} wins." if len(out.winners) == 1 else f"Seats {seats} share the win."
        )
    return f"{verdict} Scores by seat: {scores} ({out.reason}, {out.turns} turns)."


def _decision_text(st: State) -> str:
    """What the next decision is, in the rules' words."""
    name = type(st).__name__
    decision = str(getattr(st, "decision", ""))
    if name == "GarnerState":
        return {
            "lift": "lift a number group from the top layer",
            "place": "place the next lifted card",
            "collect": "collect a suit group",
            "leave": "choose the card left behind (never exactly that many in a pile)",
        }.get(decision, decision)
    if name == "GargonState":
        return {
            "play": "select cards and play them face down, or pass and draw",
            "draw": "draw a card: choose the pile",
            "resolve": "choose the colour to resolve next",
        }.get(decision, decision)
    return {
        "action": "play a bulb, a bubble, or discard a card",
        "plug": "spend a plug on the card just drawn, or keep it",
    }.get(decision, decision)


def describe(state: State, move: Move, mover: Seat, viewer: Seat) -> str:
    """A decision in the rules' words, as seat ``viewer`` may know it (``state`` is the position
    before the decision): another Gargon seat's face-down play shows only its colours."""
    kind = type(move).__name__
    if kind in ("Lift", "Place", "Collect", "LeaveBehind"):
        from gamelib.garner.picture import suit_label

        t = state.t  # type: ignore[attr-defined]
        stacks = state.stacks  # type: ignore[attr-defined]

        def name(c: int) -> str:
            return f"{suit_label(t.suit_of[c])}{t.number_of[c]}"

        if kind == "Lift":
            sites = move.sites  # type: ignore[attr-defined]
            number = t.number_of[stacks[sites[0]][-1]]
            return f"lift the {number}s on site{'s' if len(sites) > 1 else ''} " + ", ".join(
                map(str, sites)
            )
        if kind == "Place":
            origin, card = state.lifted[0]  # type: ignore[attr-defined]
            site = move.site  # type: ignore[attr-defined]
            where = " (back where it was)" if site == origin else ""
            return f"place {name(card)} on site {site}{where}"
        if kind == "Collect":
            sites = move.sites  # type: ignore[attr-defined]
            suit = suit_label(t.suit_of[stacks[sites[0]][-1]])
            count = f"{len(sites)} card{'s' if len(sites) > 1 else ''}"
            return f"collect suit {suit}: {count} on site{'s' if len(sites) > 1 else ''} " + (
                ", ".join(map(str, sites))
            )
        site = move.site  # type: ignore[attr-defined]
        return f"leave {name(stacks[site][-1])} behind on site {site}"
    if kind in ("Play", "Pass", "DrawFrom", "Resolve"):
        from gamelib.gargon.rules import COLOUR_OF, COLOURS, VALUE_OF

        if kind == "Play":
            cards = move.cards  # type: ignore[attr-defined]
            if mover == viewer:
                return "play " + " + ".join(f"{COLOURS[COLOUR_OF[c]]} {VALUE_OF[c]}" for c in cards)
            colours = ", ".join(COLOURS[COLOUR_OF[c]] for c in cards)
            return f"plays {len(cards)} card{'s' if len(cards) > 1 else ''} face down ({colours})"
        if kind == "Pass":
            k = move.draws  # type: ignore[attr-defined]
            return f"pass and draw {k}" if k else "pass (both piles are empty)"
        if kind == "DrawFrom":
            pile = move.pile  # type: ignore[attr-defined]
            top = COLOURS[COLOUR_OF[state.piles[pile][-1]]]  # type: ignore[attr-defined]
            return f"draw from pile {pile} (a {top} card)"
        return f"resolve {COLOURS[move.colour]}"  # type: ignore[attr-defined]
    if kind == "PlayBulb":
        return f"play a {move.colour} bulb"  # type: ignore[attr-defined]
    if kind == "PlayBubble":
        return "play a bubble bulb"
    if kind == "Discard":
        return f"discard a {move.kind}"  # type: ignore[attr-defined]
    if kind == "UsePlug":
        pending = state.observation(viewer).pending
        card = {"broken": "broken bulb", "event": "event (a power outage)"}.get(pending, pending)
        return f"spend a plug on the {card}" if move.use else "keep the plug"  # type: ignore[attr-defined]
    return repr(move)  # pragma: no cover - a fourth game
