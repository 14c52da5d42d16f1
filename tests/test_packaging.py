"""The bot as a self-hosting admin installs it: a plain (non-editable) install runs from any folder."""

import importlib.util
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent


def test_an_installed_bot_finds_its_locales_from_any_folder(tmp_path: Path) -> None:
    target, elsewhere, source = tmp_path / "site", tmp_path / "elsewhere", tmp_path / "source"
    elsewhere.mkdir()
    # From a clean copy of the sources, as a fresh clone has them (a checkout's egg-info lists files of its own).
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for name in ("bot", "engine", "locales"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    # With setuptools and wheel at hand the wheel is built here, offline; else pip fetches them from the index.
    offline = all(importlib.util.find_spec(name) for name in ("setuptools", "wheel"))
    isolation = ["--no-build-isolation"] if offline else []
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), *isolation, str(source)],
        check=True,
        cwd=elsewhere,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )
    assert sorted(p.name for p in (target / "locales").iterdir() if p.is_dir()) == ["en", "ru"]
    probe = (
        "import bot.i18n as i18n; from bot.i18n import Translations; "
        "print(i18n.__file__); en = Translations().get('en'); "
        "print(en.t('flow-error')); print(en.t('game-name-bk')); print(en.t('game-name-buraco'))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe],
        check=True,
        cwd=elsewhere,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(target)},
    ).stdout.splitlines()
    assert Path(shown[0]).is_relative_to(target), shown  # the installed copy, not the checkout
    assert shown[1:] == ["Something went wrong. Please try again.", "Burkozel", "Buraco"], "and each game's texts"


def test_the_image_installs_dependencies_before_the_code_and_its_context_holds_nothing_else() -> None:
    """A change to the code must not reinstall every dependency (the layer of `pip install -r` comes from the
    lock file alone), and the build context is exactly what the Dockerfile copies: never `.env` (the
    token), the database, a venv or `.git`."""
    joined = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")  # continuation lines into their step
    steps = [line.split(None, 1) for line in joined.splitlines() if line[:1].isupper()]
    copies = [rest.split()[:-1] for kind, rest in steps if kind == "COPY"]
    first_install = next(i for i, (kind, rest) in enumerate(steps) if kind == "RUN" and "pip install" in rest)
    assert [rest.split()[:-1] for kind, rest in steps[:first_install] if kind == "COPY"] == [["requirements.lock"]]
    rules = [line for line in (ROOT / ".dockerignore").read_text().splitlines() if line and not line.startswith("#")]
    assert rules[0] == "*", "everything is left out unless named"
    allowed = {rule[1:].rstrip("/") for rule in rules if rule.startswith("!")}
    copied = {path.rstrip("/") for paths in copies for path in paths}
    assert copied == allowed, (copied, allowed)


def test_the_lock_files_pin_what_pyproject_asks_for() -> None:
    """Every dependency of pyproject.toml (and of its test extra) is pinned in its lock file, at a version its
    lower bound admits: CI and the image install what was tested, and pyproject.toml stays the source."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = [Requirement(text) for text in project["dependencies"]]
    test = [Requirement(text) for text in project["optional-dependencies"]["test"]]
    for lock, wanted in (("requirements.lock", runtime), ("requirements-test.lock", runtime + test)):
        pinned = {}
        for line in (ROOT / lock).read_text().splitlines():
            if "==" in line and not line.startswith((" ", "#")):
                name, version = line.split(";")[0].strip().split("==")
                pinned[canonicalize_name(name)] = Version(version)
        for requirement in wanted:
            name = canonicalize_name(requirement.name)
            assert name in pinned, f"{lock} does not pin {name}"
            assert requirement.specifier.contains(pinned[name]), f"{lock}: {name} {pinned[name]} {requirement}"
