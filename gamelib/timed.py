"""Players by time per decision: ``mcts:25ms`` is the ``mcts:N`` that takes 25 ms a decision here.

Every search player's budget can be given as a time per decision instead of an iteration count:
``mcts:25ms`` (Garner), ``solver:25ms`` (Garner, its ``mcts`` part), ``ismcts:25ms`` or
``ismcts:40ms:cut:1`` (Gargon), ``rollout:25ms`` (Deck the Yard), and the generic search
players of any registered game — the time replaces the first option (``N``), the options after
it stay.

**Resolved before play, never a wall-clock cut.** A search stopped by a clock makes different
moves on a busy or another machine, so a game would no longer follow from (config, seed,
players). Instead :func:`resolve` turns the time into the iteration count whose **mean decision
time on this machine** is that time, and the concrete spec (``mcts:970``) is what is seated and
what result tables record: the games are then reproducible from the resolved name, on any number
of workers and on any machine. The measurement (:func:`measure`):

1. **positions**: :data:`SAMPLE_GAMES` seeded games (seeds from :data:`SAMPLE_SEED`) with the
   player at :data:`PROBE` iterations on every seat; :data:`SAMPLE_POSITIONS` of their
   decisions with two or more options, evenly spaced (every seat, every stage of the game);
2. **timing**: a fresh player at ``N`` iterations decides each position (its seat's observation,
   seeded), the total timed twice and the faster kept; first at :data:`PROBE`, then at the
   count that a straight line through the origin predicts, then at the count a straight line
   through the two points predicts (time per decision is close to linear in ``N``);
3. **naming**: that count rounded to two significant digits (``mcts:970``, ``ismcts:1100``), so
   small differences between measurements give the same name.

The result is kept in ``timed.json`` in the study cache folder (``$GAMELIB_CACHE`` or
``~/.cache/gamelib``; :func:`gamelib.sim.deals.default_cache_dir`), keyed by the machine (host,
processor, cores), the gamelib version, the game, its config and the spec, so it is measured once
per machine and the same spec keeps its name there. **The same spec may resolve differently on
another machine** (or under another load while it is measured): compare and publish the
resolved names, which the tables carry. Every gamelib command resolves time specs before play
and says what each became; in Python, ``resolve_players(config, players)`` before
``simulate``/``verdict``/``matchups`` (an unresolved time spec is refused by
:meth:`gamelib.core.Game.player`, with a message saying so).
"""

from __future__ import annotations

import json
import math
import os
import platform
import time
import warnings
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gamelib.core import (
    ConfigError,
    Game,
    GamelibWarning,
    Player,
    SplitMixRandom,
    config_to_json,
    game_rngs,
    game_seeds,
    time_budget,
)
from gamelib.sim import game_of, n_seats
from gamelib.sim.deals import cache_root
from gamelib.version import __version__

__all__ = [
    "PROBE",
    "SAMPLE_GAMES",
    "SAMPLE_POSITIONS",
    "SAMPLE_SEED",
    "mean_ms",
    "measure",
    "positions",
    "resolve",
    "resolve_players",
]

#: the seed of the games the timed positions come from
SAMPLE_SEED = 33
#: how many games the positions come from
SAMPLE_GAMES = 3
#: how many positions are timed
SAMPLE_POSITIONS = 40
#: the iteration count of the first measurement and of the players in the sample games
PROBE = 16
#: the file in the study cache folder that keeps the measurements
CACHE_FILE = "timed.json"
#: iteration counts above this are refused (a time no player of this machine reaches)
MAX_ITERATIONS = 10_000_000


def _split(spec: str) -> tuple[str, str]:
    """``("mcts", ":greedy")`` for ``mcts:25ms:greedy``: the name and the options after the
    time."""
    name, _, rest = spec.partition(":")
    _, sep, tail = rest.partition(":")
    return name, sep + tail


def with_iterations(spec: str, n: int) -> str:
    """The time spec with its time replaced by ``n`` (``mcts:25ms:random``, 970 →
    ``mcts:970:random``)."""
    name, tail = _split(spec)
    return f"{name}:{n}{tail}"


def _observe(player: Player, state: Any, seat: int) -> Any:
    look = getattr(player, "observes", True)
    return state.clone() if look == "state" else state.observation(seat) if look else None


def positions(game: Game, config: Any, spec: str) -> list[tuple[int, Any, list[Any]]]:
    """The timed positions of a time spec: ``(seat, state, legal)`` for :data:`SAMPLE_POSITIONS`
    decisions of :data:`SAMPLE_GAMES` seeded games of its player at :data:`PROBE` iterations
    on every seat (see the module docstring)."""
    probe = with_iterations(spec, PROBE)
    found: list[tuple[int, Any, list[Any]]] = []
    for seed in game_seeds(SAMPLE_SEED, SAMPLE_GAMES):
        chance, rngs = game_rngs(seed, n_seats(config))
        state = game.new_state(config, chance)
        agents = [game.player(probe) for _ in range(state.n_players)]
        while not state.is_over():
            seat = state.current_player()
            legal = state.legal_moves()
            if len(legal) > 1:
                found.append((seat, state.clone(), list(legal)))
            state.apply(agents[seat](_observe(agents[seat], state, seat), legal, rngs[seat]))
    if not found:
        raise ConfigError(f"{spec!r}: the sample games offered no decision to time")
    step = len(found) / min(SAMPLE_POSITIONS, len(found))
    return [found[int(i * step)] for i in range(min(SAMPLE_POSITIONS, len(found)))]


def mean_ms(game: Game, spec: str, sample: Sequence[tuple[int, Any, list[Any]]]) -> float:
    """Mean milliseconds per decision of ``spec`` on the sample (the faster of two passes),
    in this process's CPU time: other programs busy on the machine slow the clock on the wall,
    not this one (much)."""
    seat, state, legal = sample[0]
    warm = game.player(spec)  # loads (or compiles) the compiled code before the clock starts
    warm(_observe(warm, state, seat), legal, SplitMixRandom(0))
    best = math.inf
    for _ in range(2):
        total = 0.0
        for i, (seat, state, legal) in enumerate(sample):
            player = game.player(spec)
            obs = _observe(player, state, seat)
            start = time.process_time()
            player(obs, legal, SplitMixRandom(i))
            total += time.process_time() - start
        best = min(best, total)
    return 1000 * best / len(sample)


def two_digits(x: float) -> int:
    """``x`` rounded to two significant digits (at least 1)."""
    if x < 1:
        return 1
    digits = math.floor(math.log10(x)) - 1
    return max(1, round(x / 10**digits) * 10**digits) if digits > 0 else round(x)


def count_for(points: Sequence[tuple[int, float]], target: float) -> float:
    """The count at which the straight line through the two measurements nearest ``target``
    (or, with one, through the origin) reaches it."""
    near = sorted(points, key=lambda p: abs(p[1] - target))[:2]
    (na, ma), (nb, mb) = near if len(near) == 2 else (near[0], near[0])
    slope = (mb - ma) / (nb - na) if nb != na else 0.0
    if slope <= 0:  # one point, or noise swamped the difference: through the origin
        return nb * target / mb
    return nb + (target - mb) / slope


def measure(config: Any, spec: str) -> dict[str, Any]:
    """Measure which iteration count of a time spec's player takes its time per decision on
    this machine (see the module docstring); returns the record :func:`resolve` keeps."""
    game = game_of(config)
    target = _check(game, spec)
    sample = positions(game, config, spec)
    points: list[tuple[int, float]] = []
    n = PROBE
    for _ in range(3):
        points.append((n, mean_ms(game, with_iterations(spec, n), sample)))
        n = round(min(MAX_ITERATIONS, max(1.0, count_for(points, target))))
        if n in (m for m, _ in points):
            break
    best = count_for(points, target)
    if best < 1:
        na, ma = min(points)
        raise ConfigError(
            f"{spec!r}: even one iteration takes more than {target:g} ms a decision here "
            f"({na} took {ma:.2f} ms)"
        )
    resolved = with_iterations(spec, min(MAX_ITERATIONS, two_digits(best)))
    game.player(resolved)  # a count the player refuses (above its limit) is refused now
    return {
        "spec": spec,
        "resolved": resolved,
        "target_ms": target,
        "points": [[int(a), round(b, 3)] for a, b in points],
        "positions": len(sample),
        "sample_seed": SAMPLE_SEED,
        "sample_games": SAMPLE_GAMES,
        "measured": datetime.now(UTC).isoformat(timespec="seconds"),
        "gamelib_version": __version__,
        "machine": _machine(),
    }


def _check(game: Game, spec: str) -> float:
    """The time a time spec asks for; a bad one (no time, 0 ms, a player that takes no
    iteration count) is refused in one line naming it."""
    target = time_budget(spec)
    if target is None:
        raise ConfigError(f"{spec!r} is not a time per decision (e.g. mcts:25ms)")
    if not target > 0:
        raise ConfigError(f"{spec!r}: the time per decision must be more than 0 ms")
    name, _ = _split(spec)
    if name not in game.players:
        raise ConfigError(
            f"unknown {game.name} player {spec!r}; known players: {', '.join(game.players)}"
        )
    try:
        game.player(with_iterations(spec, PROBE))
    except ConfigError as exc:
        raise ConfigError(
            f"{spec!r}: {name} does not take an iteration count as its first option, so it "
            f"takes no time per decision ({exc})"
        ) from None
    return target


def _machine() -> str:
    """This machine, as the cache tells machines apart: host, processor, cores."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{platform.node()} | {model} | {os.cpu_count()} cores"


def _key(game: Game, config: Any, spec: str) -> str:
    return json.dumps(
        [_machine(), __version__, game.name, config_to_json(config), spec], sort_keys=True
    )


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def resolve(
    config: Any, spec: str | Player, *, cache: bool | str | os.PathLike[str] = True
) -> str | Player:
    """The concrete player a spec names: a time spec (``mcts:25ms``) becomes the iteration
    count measured to take that time per decision on this machine (``mcts:970``; see the
    module docstring); any other spec or callable comes back as it is.

    ``cache``: ``True`` (the study cache folder), a folder, or ``False`` (measure every time,
    keep nothing). A resolution measured now is reported as a
    :class:`~gamelib.core.GamelibWarning` (the command line prints it as a note)."""
    if time_budget(spec) is None:
        return spec
    assert isinstance(spec, str)
    game = game_of(config)
    _check(game, spec)
    path = None
    key = _key(game, config, spec)
    if cache is not False:
        folder, _ = cache_root(cache)
        path = folder / CACHE_FILE
        known = _load(path).get(key)
        if isinstance(known, dict) and isinstance(known.get("resolved"), str):
            _say(spec, known, f"measured {known.get('measured', '')}, kept in {path}")
            return str(known["resolved"])
    rec = measure(config, spec)
    if path is not None:
        data = _load(path)
        data[key] = rec
        tmp = path.with_name(f".{path.name}.{os.getpid()}")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        tmp.replace(path)
    _say(spec, rec, f"measured now, kept in {path}" if path is not None else "measured now")
    return str(rec["resolved"])


def _say(spec: str, rec: dict[str, Any], where: str) -> None:
    """What a time spec became, as a note (the command line prints it)."""
    warnings.warn(
        f"{spec} is {rec['resolved']} on this machine ({where}; another machine may resolve it "
        "differently: tables record the resolved name)",
        GamelibWarning,
        stacklevel=3,
    )


def resolve_players(
    config: Any,
    players: Sequence[str | Player],
    *,
    cache: bool | str | os.PathLike[str] = True,
) -> list[str | Player]:
    """``players`` with every time spec resolved (:func:`resolve`), each distinct spec once."""
    done: dict[str, str | Player] = {}
    out: list[str | Player] = []
    for p in players:
        if isinstance(p, str) and time_budget(p) is not None:
            if p not in done:
                done[p] = resolve(config, p, cache=cache)
            out.append(done[p])
        else:
            out.append(p)
    return out
