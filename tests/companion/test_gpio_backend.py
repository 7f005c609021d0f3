"""The gpio backend's choice of pin factory: the profile's, unless GPIOZERO_PIN_FACTORY says otherwise."""
from __future__ import annotations

import pytest

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
