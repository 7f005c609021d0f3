"""The gpio backend's choice of pin factory: the profile's, unless GPIOZERO_PIN_FACTORY says otherwise."""
from __future__ import annotations

import importlib.util

import pytest

from companion.cli import main
from companion.hardware.gpio import factory_name
from wiring.profile import load


def test_the_profile_chooses_the_pin_factory():
    assert factory_name(load("gpio-2"), {}) == "lgpio"


def test_gpiozero_pin_factory_overrides_the_profile():
    assert factory_name(load("gpio-2"), {"GPIOZERO_PIN_FACTORY": "rpigpio"}) == "rpigpio"


@pytest.mark.parametrize("env, source", [({"GPIOZERO_PIN_FACTORY": "mock"}, "GPIOZERO_PIN_FACTORY"),
                                         ({}, "the profile sim-8")])
def test_a_factory_that_is_no_real_hardware_is_refused_naming_where_it_came_from(env, source):
    with pytest.raises(ValueError, match=f"from {source}.*use lgpio"):
        factory_name(load("sim-8"), env)


@pytest.mark.skipif(importlib.util.find_spec("lgpio") is not None, reason="lgpio loads here: this is a Pi")
def test_a_pin_library_that_will_not_load_is_named_with_its_fix(capsys):
    assert main(["run", "--backend", "gpio", "--port", "0"]) == 2
    assert "sudo apt install python3-lgpio" in capsys.readouterr().err
