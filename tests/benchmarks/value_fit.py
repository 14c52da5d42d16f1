"""The learned value of two-player Бура (engine/bura/ai/value.py): play the deals it learns from, fit it, check it.

Run: ``.venv/bin/python -m tests.benchmarks.value_fit play [--deals 100000:105000] [--workers 2] [--level base]
[--out FILE]``, then ``.venv/bin/python -m tests.benchmarks.value_fit fit [--data FILE] [--model
engine/bura/ai/value_bura.json]``.
Fitting needs the ``fit`` extra (``.venv/bin/pip install -c requirements-fit.lock -e '.[fit]'``: NumPy and
LightGBM); playing and using the value need neither. The shipped ``value_bura.json`` came from ``play`` over the
default shuffles (60,957 positions, 4,894 shuffles with a decided deal) and ``fit``: held-out log loss 0.532
against 0.662 for a constant guess, 245 trees.

**play.** Shuffle N (``duplicate/N``, as in tests/benchmarks/ai_strength.py, from 100000 on so the deals it
learns from are not those the strength benchmark measures) is played twice, the hard player with the base budget
and full playouts (``Budget(seed=...)``, horizon 0: the player before the value) on either side and the easy
player on the other. At the start of every lead (no trick on the table, the deal one a ``Sim`` can stand for)
the position's :func:`~engine.bura.ai.value.features` from the hard side are recorded; once the deal is over
each is labelled 1 if the hard side won it, 0 if it lost (a void deal is left out). One JSON line per position:
``{"n": N, "x": [...], "won": 0|1}``, gzip-compressed if the file's name ends in ``.gz``. The file resumes:
deals already in it are not played again. ``--level`` plays another hard player instead (a level of
tests/benchmarks/ai_strength.py, such as ``value1``: the base budget judged by the shipped value), so a value can
be fitted on the deals of the player that uses it. A row does not say which level played it: give each level its
own ``--out`` file, or the resumed run mixes them.

**fit.** Gradient-boosted trees (LightGBM, binary log loss, small trees, deterministic on one thread). The
deals with ``N % 5 == 0`` are held out to choose the number of trees (early stopping), and the log loss there is
printed against a constant guess; then the trees are fitted again on every deal with that number and written
to the model file, after checking that engine/bura/ai/value.py computes the same odds as LightGBM does for
every recorded position.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
from multiprocessing.pool import Pool
from pathlib import Path
from typing import Any

from engine.bura.ai import EasyPlayer
from engine.bura.ai.sim import convertible, from_deal
from engine.bura.ai.value import MODEL, NAMES, Tree, Value, features
from engine.bura.deal import Phase
from engine.bura.match import Match
from engine.bura.players import Player
from engine.bura.variant import BURA_STANDARD, SINGLE_DEAL
from engine.bura.views import view
from tests.benchmarks import ai_strength, records

DATA = Path("value_positions.jsonl")
PARAMS: dict[str, Any] = {
    "objective": "binary",
    "learning_rate": 0.05,
    "num_leaves": 15,
    "min_data_in_leaf": 50,
    "feature_fraction": 0.8,
    "bagging_fraction": 0.8,
    "bagging_freq": 1,
    "seed": 1,
    "deterministic": True,
    "force_row_wise": True,
    "num_threads": 1,
    "verbose": -1,
}


def play(task: tuple[int, int, str]) -> list[dict[str, object]]:
    """Deal ``number`` with the hard player of ``level`` (``base``: the base budget, full playouts; or a level
    of tests/benchmarks/ai_strength.py) on ``hard_side``: its positions, labelled (none if void)."""
    number, hard_side, level = task
    maker = ai_strength.level(level)
    assert maker is not None, f"unknown level {level}"
    single = BURA_STANDARD.with_options(match=SINGLE_DEAL)
    match = Match(single, 2, f"duplicate/{number}")
    brains: dict[int, Player] = {}
    hard_seat = 0
    for seat in range(2):
        if match.side_of(seat) == hard_side:
            hard_seat = seat
            brains[seat] = maker(single, 2, f"{number}/{seat}")
        else:
            brains[seat] = EasyPlayer(single)
    positions: list[list[float]] = []
    seen: set[int] = set()
    while not match.finished:
        deal = match.deal
        at = len(deal.history)
        if deal.phase is Phase.LEAD and deal.trick is None and at not in seen and convertible(deal):
            seen.add(at)
            positions.append(features(from_deal(deal), hard_seat))
        mover = match.to_act()
        assert mover is not None
        match.apply(brains[mover].choose(view(match, mover)))
    winners = match.outcomes[-1].winners
    if len(winners) != 1:
        return []
    won = int(winners[0] == match.side_of(hard_seat))
    return [{"n": number, "x": x, "won": won} for x in positions]


def play_main(deals: range, workers: int, out: Path, level: str = "base") -> None:
    done = {row["n"] for row in records.read(out)}
    numbers = sorted({n for n in deals if n not in done})
    print(f"playing {2 * len(numbers)} deals of {level} against easy into {out}", flush=True)
    # Both deals of a shuffle are written together, so a stopped run leaves no shuffle half done.
    with Pool(workers) as pool, records.appending(out) as sink:
        for rows in pool.imap(_pair, [(n, level) for n in numbers], chunksize=2):
            records.append(sink, rows, compact=False)


def _pair(task: tuple[int, str]) -> list[dict[str, object]]:
    number, level = task
    return play((number, 0, level)) + play((number, 1, level))


class _Flat:
    """One LightGBM tree laid out as :class:`Tree`'s arrays (internal nodes by ``split_index``, leaves by
    ``leaf_index``)."""

    def __init__(self, leaves: int) -> None:
        self.feature, self.threshold = [0] * (leaves - 1), [0.0] * (leaves - 1)
        self.left, self.right = [0] * (leaves - 1), [0] * (leaves - 1)
        self.leaf = [0.0] * leaves

    def add(self, node: dict[str, Any]) -> int:
        if "leaf_index" in node:
            self.leaf[node["leaf_index"]] = float(node["leaf_value"])
            return int(~node["leaf_index"])
        if node["decision_type"] != "<=":
            raise ValueError(f"a split of kind {node['decision_type']}: only <= is evaluated")
        at = int(node["split_index"])
        self.feature[at], self.threshold[at] = int(node["split_feature"]), float(node["threshold"])
        self.left[at], self.right[at] = self.add(node["left_child"]), self.add(node["right_child"])
        return at

    def tree(self) -> Tree:
        return Tree(tuple(self.feature), tuple(self.threshold), tuple(self.left), tuple(self.right), tuple(self.leaf))


def to_value(booster: Any) -> Value:
    """A fitted LightGBM booster as a :class:`Value`."""
    trees = []
    for info in booster.dump_model()["tree_info"]:
        root = info["tree_structure"]
        if "split_index" not in root:  # a tree of one leaf
            trees.append(Tree((), (), (), (), (float(root["leaf_value"]),)))
            continue
        flat = _Flat(int(info["num_leaves"]))
        flat.add(root)
        trees.append(flat.tree())
    return Value(NAMES, tuple(trees))


def fit_main(data: Path, model: Path) -> None:
    # Typed as Any: the fit extra is not installed where the tests and mypy run.
    lightgbm: Any = importlib.import_module("lightgbm")
    numpy: Any = importlib.import_module("numpy")
    rows = records.read(data)
    x = numpy.array([row["x"] for row in rows], dtype=float)
    y = numpy.array([row["won"] for row in rows], dtype=float)
    held = numpy.array([row["n"] % 5 == 0 for row in rows])
    print(f"{len(rows)} positions of {len({row['n'] for row in rows})} shuffles, won {y.mean():.3f}")
    train = lightgbm.Dataset(x[~held], y[~held], feature_name=list(NAMES), free_raw_data=False)
    test = lightgbm.Dataset(x[held], y[held], reference=train)
    booster = lightgbm.train(
        PARAMS, train, num_boost_round=2000, valid_sets=[test], callbacks=[lightgbm.early_stopping(50, verbose=False)]
    )
    rounds = booster.best_iteration
    odds = booster.predict(x[held], num_iteration=rounds)
    prior = float(y[~held].mean())
    constant = -numpy.mean(y[held] * math.log(prior) + (1 - y[held]) * math.log(1 - prior))
    loss = -numpy.mean(y[held] * numpy.log(odds) + (1 - y[held]) * numpy.log(1 - odds))
    print(f"held-out log loss: constant {constant:.4f}, trees {loss:.4f} ({rounds} trees)")
    final = lightgbm.train(PARAMS, lightgbm.Dataset(x, y, feature_name=list(NAMES)), num_boost_round=rounds)
    value = to_value(final)
    expected = final.predict(x)
    worst = max(abs(value.odds(list(row)) - p) for row, p in zip(x.tolist(), expected, strict=True))
    print(f"engine/bura/ai/value.py against LightGBM over {len(rows)} positions: largest difference {worst:.2e}")
    if worst > 1e-9:
        sys.exit("the trees do not evaluate as LightGBM does: not written")
    model.write_text(json.dumps(value.to_json(), separators=(",", ":")) + "\n")
    print(f"wrote {model} ({len(value.trees)} trees)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    playing = commands.add_parser("play")
    playing.add_argument("--deals", default="100000:105000", help="shuffle numbers, start:stop")
    playing.add_argument("--workers", type=int, default=2)
    playing.add_argument("--out", type=Path, default=DATA)
    playing.add_argument("--level", default="base", help="the hard player's level (ai_strength's names)")
    fitting = commands.add_parser("fit")
    fitting.add_argument("--data", type=Path, default=DATA)
    fitting.add_argument("--model", type=Path, default=MODEL)
    args = parser.parse_args()
    if args.command == "play":
        start, stop = (int(part) for part in args.deals.split(":"))
        if ai_strength.level(args.level) is None:
            parser.error(f"unknown level {args.level}")
        play_main(range(start, stop), args.workers, args.out, args.level)
    else:
        fit_main(args.data, args.model)


if __name__ == "__main__":
    main()
