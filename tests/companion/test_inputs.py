"""Debounce and tap/hold on an injected clock."""
from companion.inputs import Control, Edge, Inputs


def test_a_hole_taps_on_the_press_edge_and_bounces_are_ignored():
    c = Control(1, "hole1", instant=True, holds=False)
    assert [g.kind for g in c.edge(0.0, True)] == ["tap"]
    assert c.edge(0.003, False) == [] and c.edge(0.006, True) == []   # contact bounce
    assert c.edge(0.100, False) == []
    assert [g.kind for g in c.edge(0.200, True)] == ["tap"]


def test_a_release_lost_in_the_bounce_window_settles_when_due():
    c = Control(1, "hole1", instant=True, holds=False)
    c.edge(0.0, True)
    c.edge(0.005, False)            # a real, very short press: release inside the window
    assert c.due() == 0.02
    assert c.tick(0.02) == [] and c.level is False
    assert [g.kind for g in c.edge(0.1, True)] == ["tap"]


def test_ok_taps_on_release_and_holds_after_the_hold_time():
    c = Control(1, "ok", instant=False, holds=True, hold_s=1.0)
    assert c.edge(0.0, True) == []
    assert [g.kind for g in c.edge(0.3, False)] == ["tap"]
    c.edge(1.0, True)
    assert c.due() == 2.0 and c.tick(1.5) == []
    assert [g.kind for g in c.tick(2.0)] == ["hold"]
    assert c.edge(2.5, False) == []  # no tap after a hold


def test_hole_5_taps_on_the_press_edge_and_holds_after_the_hold_time_as_well():
    c = Control(1, "hole5", instant=True, holds=True, hold_s=1.0)
    assert [g.kind for g in c.edge(0.0, True)] == ["tap"]
    assert c.due() == 1.0 and [g.kind for g in c.tick(1.0)] == ["hold"]
    assert c.edge(1.5, False) == []
    assert [g.kind for g in Inputs(1).edge(Edge(0.0, 1, "hole5", True))] == ["tap"]
    assert Inputs(1).controls[1, "hole4"].holds is False


def test_inputs_route_edges_to_their_seat_and_ignore_unknown_controls():
    inputs = Inputs(2)
    assert [(g.seat, g.control) for g in inputs.edge(Edge(0.0, 2, "hole3", True))] == [(2, "hole3")]
    assert inputs.edge(Edge(0.0, 3, "hole1", True)) == []
