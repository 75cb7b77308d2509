"""The options of ``allocate`` and ``share`` that are the studies' declared parameters: built
from the declarations (``scheduling.fairness.params``), the same defaults in effect as before,
and every bad value refused at once, naming its option (exit 2)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from scheduling.cli import build_parser, main
from scheduling.fairness.cli import ALLOCATE_FLAGS, SHARE_FLAGS
from scheduling.fairness.params import ALLOCATION_PARAMS, CONFIGURATION_PARAMS
from scheduling.params import describe

ROOT = Path(__file__).resolve().parents[3]
TABLE_I = str(ROOT / "examples" / "paper000-table1.json")
MARATHON_SCYLLA = str(ROOT / "examples" / "paper001-marathon-scylla.json")


def subcommand(name: str) -> argparse.ArgumentParser:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found = sub.choices[name]
    assert isinstance(found, argparse.ArgumentParser)
    return found


def option(parser: argparse.ArgumentParser, flag: str) -> argparse.Action:
    return next(a for a in parser._actions if flag in a.option_strings)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, json.loads(out) if code == 0 else out, err


def without_timing(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k != "seconds"}


def test_the_declared_parameters_are_the_options() -> None:
    assert [p.flag for p in ALLOCATE_FLAGS] == ["--trials", "--seed"]
    assert [p.flag for p in SHARE_FLAGS] == ["--mode", "--criterion", "--servers", "--interval", "--seed",
                                             "--horizon", "--max-tasks-per-offer", "--registration",
                                             "--offers-count", "--minimum-offer", "--drf-ties"]
    assert all(p in ALLOCATION_PARAMS for p in ALLOCATE_FLAGS)
    assert all(p in CONFIGURATION_PARAMS for p in SHARE_FLAGS)
    for command, params in (("allocate", ALLOCATE_FLAGS), ("share", SHARE_FLAGS)):
        parser = subcommand(command)
        for p in params:
            assert p.flag is not None
            action = option(parser, p.flag)
            assert action.help == describe(p) and action.default is None
            assert list(action.choices or ()) == list(p.choices)
    assert option(subcommand("share"), "--interval").metavar == "INTERVAL"
    assert "(1 to 100,000; default 1)" in str(option(subcommand("allocate"), "--trials").help)


def test_allocate_defaults_in_effect_are_the_same(capsys: pytest.CaptureFixture[str]) -> None:
    code, given, _ = run(capsys, "allocate", TABLE_I, "--policy", "drf", "--trials", "1", "--seed", "0", "-q")
    assert code == 0 and (given["trials"], given["seed"]) == (1, 0)
    code, defaults, _ = run(capsys, "allocate", TABLE_I, "--policy", "drf", "-q")
    assert code == 0 and without_timing(defaults) == without_timing(given)
    # an exact optimisation takes no trials, but --trials 1 says nothing more
    assert run(capsys, "allocate", TABLE_I, "--exact", "pf", "--trials", "1", "-q")[0] == 0
    code, _, err = run(capsys, "allocate", TABLE_I, "--exact", "pf", "--trials", "3")
    assert code == 2 and "takes neither --servers nor --trials" in err


def test_share_defaults_in_effect_are_the_same(capsys: pytest.CaptureFixture[str]) -> None:
    code, given, _ = run(capsys, "share", MARATHON_SCYLLA, "--mode", "offers", "--criterion", "drf",
                         "--interval", "1", "--seed", "0", "-q")
    assert code == 0
    code, defaults, _ = run(capsys, "share", MARATHON_SCYLLA, "-q")
    assert code == 0 and without_timing(defaults) == without_timing(given)
    assert (defaults["mode"], defaults["criterion"], defaults["seed"]) == ("offers", "drf", 0)


def test_every_bad_value_is_named_by_its_option_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "share", MARATHON_SCYLLA, "--interval", "0", "--seed", "-1",
                         "--horizon", "0", "--set", "scylla.refuse_s=x", "--set", "scylla.colour=red")
    assert code == 2 and out == ""
    assert err.splitlines() == [
        "error: --interval: must be a number of seconds > 0",
        "error: --seed: must be a whole number from 0 to 9,223,372,036,854,775,807",
        "error: --horizon: must be a number of seconds > 0",
        "error: --set scylla.colour: unknown field (override takes offer_policy, refuse_s, hold_s)",
        "error: --set scylla.refuse_s: must be a number of seconds >= 0",
    ]
    code, _, err = run(capsys, "share", MARATHON_SCYLLA, "--set", "nobody.hold_s=1", "--interval", "nan")
    assert code == 2 and err.splitlines() == [
        "error: --interval: must be a number of seconds > 0",
        "error: --set[0]: unknown framework 'nobody' (frameworks: marathon, scylla)",
    ]
    code, _, err = run(capsys, "allocate", TABLE_I, "--policy", "drf", "--trials", "0", "--seed", "-1")
    assert code == 2 and err.splitlines() == [
        "error: --trials: must be a whole number from 1 to 100,000",
        "error: --seed: must be a whole number from 0 to 9,223,372,036,854,775,807",
    ]


@pytest.mark.parametrize(("argv", "message"), [
    (["--criterion", "tsf"], "error: --criterion: the offer cycle sorts frameworks by DRF (criterion drf)"),
    (["--servers", "joint"], "error: --servers: the offer cycle visits the agents in random order (rrr)"),
    (["--mode", "characterized", "--criterion", "bf-drf", "--servers", "rrr"],
     "error: --servers: bf-drf chooses servers by best fit"),
])
def test_the_libraries_rules_name_the_option(capsys: pytest.CaptureFixture[str], argv: list[str],
                                             message: str) -> None:
    code, _, err = run(capsys, "share", MARATHON_SCYLLA, *argv)
    assert code == 2 and err.startswith(message)


def test_a_choice_not_declared_is_argparses_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["share", MARATHON_SCYLLA, "--mode", "nope"])
    assert exit_.value.code == 2 and "argument --mode: invalid choice: 'nope'" in capsys.readouterr().err
