"""gamelib's games as OpenSpiel games: ``gamelib_garner``, ``gamelib_gargon``,
``gamelib_deck_the_yard`` and ``gamelib_<name>`` for any other registered game.

Importing this package registers the games with ``pyspiel`` (the optional extra:
``pip install 'gamelib[openspiel]'``), after which ``pyspiel.load_game`` loads them by name::

    import gamelib.openspiel
    game = pyspiel.load_game("gamelib_garner(setup=E,must_move=one)")

**Parameters.** ``setup`` names one of the game's setups (``custom``, the default: the default
rules; an empty name is refused); every other parameter is a config field of the same name
overriding that setup (OpenSpiel hands every parameter over, defaults included, so a value
equal to the default config's keeps the setup's).  Fields whose values are tuples are written
as text, elements separated by ``:`` (``suit_sizes=9:9:9``; a one-element tuple ends in ``:``;
Deck the Yard's ``patterns`` separates patterns by ``/``: ``red:blue:red:blue:bubble/…``); a
field that may be empty (``None``) takes ``none``, and Garner's ``forbidden_pile_size`` is ``0``
for none.

**Chance.** Every random event of the rules is a chance node with explicit, uniform outcome
probabilities, one card at a time: the deal (Garner: the deck dealt site by site, bottom card
first; Gargon: the shuffled deck, hands seat by seat then the two draw piles bottom card first;
Deck the Yard: the pattern cards, then the draw pile top card first) and every reshuffle of the
rules (Deck the Yard sets special cards aside and shuffles them back).  A chance outcome is the
id of the card that comes next (``gamelib.<game>.rules`` card ids); when one card is left it
comes without a chance node.

**Actions** (fixed per game, ``num_distinct_actions`` wide):

* Garner — the site a decision names (``row * cols + col``): the lowest site of the number
  group to lift, the site to place the next lifted card on, the lowest site of the suit group to
  collect, the site whose card is left behind (the compiled core's decision code).
* Gargon — ``0..3`` pass and draw that many cards; ``4, 5`` draw from pile 0 / 1; ``6..11``
  resolve colour 0..5; ``12 + rank`` play the cards of that rank, the rank of ascending card ids
  ``a < b < c`` in the combinatorial number system (``a``; ``102 + C(b,2) + a``;
  ``102 + C(102,2) + C(c,3) + C(b,2) + a``).
* Deck the Yard — the compiled core's decision codes (``gamelib.deck_the_yard.kernel``): ``0..5``
  play a bulb of that colour, then bubble, discards by kind, use a plug / not.

**Returns.** Garner: +1 for the winner, -1 for the loser, 0 each for a draw (zero-sum).
Gargon: each winner's share of the win, ``1/k`` when ``k`` players tie for the top score, 0 for
the others (declared general-sum, as the scores are; the shares always sum to 1).  Deck the
Yard: 1 for a won game, 0 for a lost one.

**Observations.** ``observation_string(seat)`` renders exactly ``state.observation(seat)`` of the
reference engine (Garner: the whole position), and ``observation_tensor(seat)`` the same in
numbers (its named pieces: ``make_py_observer().dict``); ``information_state_string(seat)`` is
the seat's observations after every step so far, with its own decisions (perfect recall).  No
information-state tensor is provided.

**Conversions.** :func:`record_to_actions` turns a gamelib record into (OpenSpiel game, action
history), :func:`actions_to_record` an action history into a record ``gamelib.replay`` accepts;
:func:`to_openspiel` builds the OpenSpiel state of a gamelib position from its start and the
moves since, :func:`from_openspiel` hands back a copy of the wrapped reference State.

**Speed.** A state plays on the game's compiled core when it has one (legal actions, apply and
clone touch one int64 vector); the reference engine is brought up to date only for strings,
tensors, records and reshuffles (:mod:`gamelib.openspiel.state`).  **Pickling**: games pickle as
their name and parameters, states as their game and history.  **Resampling**:
``resample_from_infostate(seat, sampler)`` deals every card the seat has not seen again,
uniformly, and returns a state with a whole game's history (Gargon: the hidden numbers; Deck
the Yard: the face-down order; Garner hides nothing), so OpenSpiel's ``ISMCTSBot`` plays them.

The package: :mod:`~gamelib.openspiel.params` (parameters and config fields),
:mod:`~gamelib.openspiel.adapter` (what an adapter says about its game),
:mod:`~gamelib.openspiel.state` (the game, state and observer they share), one module per
game, :mod:`~gamelib.openspiel.generic` (any other registered game),
:mod:`~gamelib.openspiel.games` (registration) and :mod:`~gamelib.openspiel.convert`
(records and positions).
"""

from __future__ import annotations

try:
    import pyspiel  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "gamelib.openspiel needs OpenSpiel, which is not installed: "
        "pip install 'gamelib[openspiel]'"
    ) from exc

from gamelib.openspiel.adapter import Adapter, Engine
from gamelib.openspiel.convert import (
    actions_to_record,
    from_openspiel,
    from_openspiel_record,
    record_to_actions,
    to_openspiel,
)
from gamelib.openspiel.evaluate import CompiledRolloutEvaluator
from gamelib.openspiel.games import ADAPTERS, GAME_CLASSES, register
from gamelib.openspiel.gargon import gargon_play_rank
from gamelib.openspiel.params import params_of
from gamelib.openspiel.state import GamelibSpielGame, GamelibSpielState, load

register()

#: the OpenSpiel names of gamelib's games
GAME_NAMES = tuple(ADAPTERS)

__all__ = [
    "ADAPTERS",
    "GAME_CLASSES",
    "GAME_NAMES",
    "Adapter",
    "CompiledRolloutEvaluator",
    "Engine",
    "GamelibSpielGame",
    "GamelibSpielState",
    "actions_to_record",
    "from_openspiel",
    "from_openspiel_record",
    "gargon_play_rank",
    "load",
    "params_of",
    "record_to_actions",
    "to_openspiel",
]
