"""OpenSpiel's Python observer of a gamelib game: a seat's observation string and tensor, or,
with perfect recall, its information-state string (of a ``GamelibSpielState``, which makes
observers; so this module does not import it)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gamelib.openspiel.adapter import Adapter

__all__ = ["Observer"]


class Observer:
    """OpenSpiel's Python observer: the observation string and tensor of a seat (with
    ``perfect_recall``: the information-state string; no information-state tensor)."""

    def __init__(self, adapter: Adapter, config: Any, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.adapter = adapter
        shapes = adapter.tensor_shapes(config) if adapter.provides_tensor else []
        size = sum(int(np.prod(shape)) for _, shape in shapes)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, shape in shapes:
            k = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + k].reshape(shape)
            at += k

    def set_from(self, state: Any, player: int) -> None:
        """Fill the tensor with what ``player`` sees (all zeros while the deal goes on)."""
        self.tensor.fill(0)
        ref = state.ref
        if ref is not None and self.adapter.provides_tensor:
            self.adapter.fill_tensor(ref, player, self.dict)

    def string_from(self, state: Any, player: int) -> str:
        """The observation (or information-state) string of ``player``."""
        if self.perfect_recall:
            return str(state.information_state_string_of(player))
        return str(state.observation_string_of(player))
