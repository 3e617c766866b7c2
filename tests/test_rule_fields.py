"""One place per rule field: every field of every game's config has a variant in its config
class (``RULE_VARIANTS``), each variant reaches the compiled kernel's tables, and the kernels'
cross-checks replay each variant (their CONFIGS are generated from it). Adding a rule field
without a variant, or one the kernel never reads, fails here."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np
import pytest

from gamelib.core import ConfigError, rule_variants
from gamelib.deck_the_yard import DeckTheYardConfig
from gamelib.deck_the_yard import kernel as dty_kernel
from gamelib.gargon import GargonConfig
from gamelib.gargon import kernel as gargon_kernel
from gamelib.garner import GarnerConfig
from gamelib.garner import kernel as garner_kernel

KERNELS: dict[type, Any] = {
    GarnerConfig: garner_kernel.tables,
    GargonConfig: gargon_kernel.tables,
    DeckTheYardConfig: dty_kernel.tables,
}


def _same_tables(a: Any, b: Any) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("config_type", list(KERNELS), ids=lambda c: c.__name__)
def test_every_rule_field_has_a_variant_that_reaches_the_kernel(config_type: type) -> None:
    variants = rule_variants(config_type)
    fields = {f.name for f in dataclasses.fields(config_type)} - set(config_type.LABELS)
    assert set(variants) == fields
    tables = KERNELS[config_type]
    default = tables(config_type())
    ignored = [name for name, cfg in variants.items() if _same_tables(tables(cfg), default)]
    assert not ignored, f"the kernel's tables ignore {ignored}"


def test_a_field_without_a_variant_is_named() -> None:
    @dataclasses.dataclass(frozen=True)
    class Rules:
        hand_size: int = 5
        bonus: int = 2
        RULE_VARIANTS: ClassVar[dict[str, dict[str, int]]] = {"hand_size": {"hand_size": 4}}

    with pytest.raises(ConfigError, match="no variant for bonus"):
        rule_variants(Rules)

    @dataclasses.dataclass(frozen=True)
    class Still:
        hand_size: int = 5
        RULE_VARIANTS: ClassVar[dict[str, dict[str, int]]] = {"hand_size": {"hand_size": 5}}

    with pytest.raises(ConfigError, match="leaves hand_size as it is"):
        rule_variants(Still)


@pytest.mark.parametrize(
    ("module", "config_type"),
    [
        ("test_garner_kernel", GarnerConfig),
        ("test_gargon_kernel", GargonConfig),
        ("test_deck_the_yard_kernel", DeckTheYardConfig),
    ],
)
def test_the_kernel_cross_checks_replay_every_variant(module: str, config_type: type) -> None:
    import importlib

    configs = importlib.import_module(module).CONFIGS  # pytest puts tests/ on the path
    configs = list(configs.values()) if isinstance(configs, dict) else list(configs)
    missing = [n for n, v in rule_variants(config_type).items() if v not in configs]
    assert not missing, f"{module}.CONFIGS does not replay the variants of {missing}"
