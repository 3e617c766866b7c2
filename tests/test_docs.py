"""The documentation site's promises that a build alone does not check.

The build itself (``make docs-check``, a step of ``make test``) fails on any warning: a broken
link, a page outside every table of contents, a public object without a docstring. These tests
cover the rest: the rules pages are the shared ones word for word, every public module and
notebook has its place in the site, and the build's own checks and mends still bite.
"""

from __future__ import annotations

import importlib.util
import logging
import pkgutil
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import gamelib

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SHARED_RULES = ROOT.parent / "shared" / "rules"

# gamelib modules that are not in the API reference, each for a reason a user would accept
NOT_IN_THE_REFERENCE = {
    "gamelib.cli": "the command line; its pages are the guide's and `gamelib COMMAND --help`",
    "gamelib.warm": "make install's warm-up of the numba cache, run as python -m gamelib.warm",
    "gamelib.kernel_rng": "the compiled cores' random numbers, internal to the kernels",
}


def _conf() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gamelib_docs_conf", DOCS / "conf.py")
    assert spec is not None and spec.loader is not None
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    return conf


@pytest.mark.skipif(
    not SHARED_RULES.is_dir(), reason="../shared/rules/ is not beside this clone (CI's clone)"
)
def test_rules_pages_are_the_shared_ones_word_for_word():
    shared = {p.name: p.read_bytes() for p in SHARED_RULES.glob("*.md")}
    copies = {p.name: p.read_bytes() for p in (DOCS / "rules").glob("*.md") if p.name != "index.md"}
    assert shared, "no rules pages in ../shared/rules/"
    assert sorted(copies) == sorted(shared), "docs/rules/ and ../shared/rules/ list other pages"
    stale = sorted(name for name in shared if copies[name] != shared[name])
    assert not stale, f"docs/rules/ differs from ../shared/rules/ for {stale}: copy them again"


def test_rules_index_lists_every_rules_page():
    index = (DOCS / "rules" / "index.md").read_text()
    pages = sorted(p.stem for p in (DOCS / "rules").glob("*.md") if p.name != "index.md")
    assert pages == ["deck-the-yard", "gargon", "garner"]
    assert all(re.search(rf"^{page}$", index, re.M) for page in pages)


def test_every_public_module_is_in_the_api_reference():
    listed = set(re.findall(r"^\s+(gamelib[\w.]*)$", (DOCS / "api" / "index.md").read_text(), re.M))
    modules = {"gamelib"} | {
        m.name for m in pkgutil.walk_packages(gamelib.__path__, "gamelib.") if "._" not in m.name
    }

    def covered(name: str) -> bool:
        # a package listed with :recursive: brings every submodule; `gamelib` alone is not
        return name in listed or any(name.startswith(f"{p}.") for p in listed - {"gamelib"})

    def left_out(name: str) -> bool:  # a package left out leaves out its rooms
        return any(name == x or name.startswith(f"{x}.") for x in NOT_IN_THE_REFERENCE)

    missing = sorted(m for m in modules if not covered(m) and not left_out(m))
    assert not missing, f"add to docs/api/index.md (or to NOT_IN_THE_REFERENCE): {missing}"
    assert not set(NOT_IN_THE_REFERENCE) - modules, "NOT_IN_THE_REFERENCE names a lost module"


def test_every_notebook_has_a_row_in_the_notebooks_page():
    page = (DOCS / "notebooks.md").read_text()
    notebooks = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]*-*.ipynb"))
    assert notebooks
    missing = [nb for nb in notebooks if f"](notebooks/{nb}.ipynb)" not in page]
    assert not missing, f"docs/notebooks.md has no row for {missing}"


def test_make_test_builds_the_site_with_warnings_as_errors():
    makefile = (ROOT / "Makefile").read_text()
    test_target = re.search(r"^test:(.*)$", makefile, re.M)
    assert test_target and "docs-check" in test_target.group(1).split()
    check = re.search(r"^docs-check:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert check, "no docs-check recipe"
    flags = check.group(1).split()
    assert {"-W", "--keep-going", "-E"} <= set(flags)


def test_the_docstring_check_names_a_public_object_without_one(caplog):
    conf = _conf()

    def undocumented() -> None:
        pass

    undocumented.__module__ = "gamelib.example"
    check = conf.require_docstring
    with caplog.at_level(logging.WARNING):
        check(None, "function", "gamelib.example.undocumented", undocumented, {}, [])
        check(None, "function", "gamelib.example._private", undocumented, {}, [])
        check(None, "function", "gamelib.example.kept", undocumented, {}, ["A one-liner."])
        check(None, "function", "numpy.elsewhere", print, {}, [])
    assert [r.getMessage() for r in caplog.records] == [
        "function gamelib.example.undocumented has no docstring"
    ]


def test_the_docstring_check_sees_through_a_dataclass_signature(caplog):
    import dataclasses

    conf = _conf()

    @dataclasses.dataclass
    class Bare:
        x: int

    Bare.__module__ = "gamelib.example"
    assert Bare.__doc__ and Bare.__doc__.startswith("Bare(")
    with caplog.at_level(logging.WARNING):
        conf.require_docstring(None, "class", "gamelib.example.Bare", Bare, {}, [Bare.__doc__])
    assert "has no docstring" in caplog.text


def test_each_docstring_mend_still_has_its_slip_to_mend():
    # a mend whose text is gone from its docstring (fixed at the source) must be deleted
    conf = _conf()
    for target, text, _replacement in conf.DOCSTRING_MENDS:
        module_name, name = target.rsplit(".", 1)
        obj: Any = getattr(importlib.import_module(module_name), name)
        assert text in (obj.__doc__ or ""), f"{target} no longer has {text!r}: drop the mend"


def test_the_heading_filter_drops_notebook_warnings_only():
    conf = _conf()
    keep = conf.NotebookHeadingFilter().filter

    def record(location: object, kind: tuple[str, str] = ("myst", "header")) -> logging.LogRecord:
        r = logging.LogRecord("sphinx.myst", logging.WARNING, "", 0, "H1 to H3", None, None)
        r.type, r.subtype = kind
        r.location = location
        return r

    assert not keep(record(("notebooks/01-garner-fairness", 3)))
    assert not keep(record(str(DOCS / "notebooks" / "01-garner-fairness.ipynb") + ":3"))
    assert keep(record(("guide/verdicts", 3)))
    assert keep(record(("notebooks/01-garner-fairness", 3), ("myst", "xref_missing")))


def test_notebooks_are_copied_for_the_site_and_stale_copies_removed(tmp_path, monkeypatch):
    conf = _conf()
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "00-a.ipynb").write_text("{}")
    copies = tmp_path / "docs" / "notebooks"
    copies.mkdir(parents=True)
    (copies / "99-gone.ipynb").write_text("{}")
    monkeypatch.setattr(conf, "ROOT", tmp_path)
    monkeypatch.setattr(conf, "NOTEBOOK_COPIES", copies)
    assert conf.copy_notebooks() == ["00-a"]
    assert sorted(p.name for p in copies.iterdir()) == ["00-a.ipynb"]
    (tmp_path / "notebooks" / "00-a.ipynb").write_text('{"changed": 1}')
    conf.copy_notebooks()
    assert (copies / "00-a.ipynb").read_text() == '{"changed": 1}'


LONG_DEFAULT = tuple(f"pattern {i}" for i in range(10))


def test_dataclass_signatures_name_their_factories_and_long_defaults():
    import dataclasses

    conf = _conf()

    @dataclasses.dataclass
    class Config:
        terms: list[tuple[float, str]] = dataclasses.field(default_factory=list)
        patterns: tuple[str, ...] = LONG_DEFAULT
        size: int = 3

    sig = (
        "(terms: list[tuple[float, str]] = <factory>,"
        f" patterns: tuple[str, ...] = {LONG_DEFAULT!r}, size: int = 3)"
    )
    out, _ = conf.shorten_dataclass_defaults(None, "class", "Config", Config, {}, sig, None)
    assert out == (
        "(terms: list[tuple[float, str]] = list(), patterns: tuple[str, ...] = LONG_DEFAULT,"
        " size: int = 3)"
    )


def test_each_command_help_names_a_guide_page_that_exists(capsys):
    from gamelib.cli import GUIDE_PAGES, build_parser

    assert all((DOCS / "guide" / f"{page}.md").is_file() for page in GUIDE_PAGES.values())
    parser = build_parser()
    for command, page in GUIDE_PAGES.items():
        game = [] if command == "replay" else ["gargon" if command == "worth" else "garner"]
        with pytest.raises(SystemExit):
            parser.parse_args([command, *game, "--help"])
        assert f"docs/guide/{page}.md" in capsys.readouterr().out, command
