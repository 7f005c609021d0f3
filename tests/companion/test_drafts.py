"""A seat's draft on the generic panel, one decision kind at a time."""
from companion.table.drafts import Draft
from companion.table.outcomes import Changed, Refusal, Submit
from rules.model import Decision, Kind


class Pressing:
    """A seat's draft as a finger moves it: each press answers the next draft beside what it did."""

    def __init__(self):
        self.draft = Draft()

    def follow(self, d):
        self.draft = self.draft.follow(d)

    def tap(self, control, d, why=None):
        self.draft, outcome = self.draft.tap(control, d, why)
        return outcome

    def summary(self, d):
        return self.draft.summary(d)


def test_a_press_answers_a_new_draft_and_leaves_the_one_it_was_given():
    d = Decision(1, "popup", Kind.HOLES, (1, 2, 3, 4, 5), min=0, max=2)
    before = Draft().follow(d)
    after, outcome = before.tap("hole2", d)
    assert outcome == Changed() and after.value == {2} and before.value == frozenset()
    assert after.follow(d) is after                         # the same decision: the same draft
    assert after.follow(Decision(1, "whack", Kind.CHOICE, (1, 2))).value is None     # a new one: a fresh draft


def test_holes_toggle_and_commit_within_bounds():
    d = Decision(1, "popup", Kind.HOLES, (1, 2, 3, 4, 5), min=0, max=2)
    e = Pressing()
    e.follow(d)
    assert isinstance(e.tap("hole2", d), Changed) and isinstance(e.tap("hole4", d), Changed)
    assert e.tap("hole5", d) == Refusal("2 holes at most")
    e.tap("hole2", d)                                   # toggled off again
    assert e.tap("ok", d) == Submit("popup", (4,))


def test_choice_by_hole_number_needs_a_pick_before_ok():
    d = Decision(1, "whack", Kind.CHOICE, (1, 2, 3))
    e = Pressing()
    e.follow(d)
    assert e.tap("ok", d) == Refusal("choose first, then OK")
    assert e.tap("hole4", d) == Refusal("hole 4 cannot be chosen")
    e.tap("hole3", d)
    e.tap("hole1", d)
    assert e.tap("ok", d) == Submit("whack", 1)


def test_long_labelled_lists_step_with_holes_one_and_two():
    d = Decision(1, "prize", Kind.CHOICE, tuple("abcdefg"), labels=tuple("ABCDEFG"))
    e = Pressing()
    e.follow(d)
    e.tap("hole2", d)
    e.tap("hole2", d)
    e.tap("hole1", d)
    assert e.summary(d)["label"] == "B" and e.tap("ok", d) == Submit("prize", "b")


def test_grid_cursor_moves_and_only_legal_targets_commit():
    d = Decision(1, "move", Kind.CELL, ((1, 1), (2, 1), (2, 2)))
    e = Pressing()
    e.follow(d)
    e.tap("hole4", d)
    e.tap("hole3", d)
    assert e.draft.value == (2, 2) and e.tap("ok", d) == Submit("move", (2, 2))
    e.tap("hole1", d)                                   # (1, 2) is not legal
    assert e.tap("ok", d) == Refusal("not a legal choice")


def test_edges_turn_with_hole_five():
    d = Decision(1, "rod", Kind.EDGE, ((1, 1, "E"), (1, 1, "S")))
    e = Pressing()
    e.follow(d)
    e.tap("hole5", d)
    assert e.tap("ok", d) == Submit("rod", (1, 1, "S"))


def test_an_edge_cursor_stays_on_edges_of_its_side_and_says_when_it_cannot_go_on():
    edges = ((1, 1, "E"), (2, 1, "E"), (1, 1, "S"), (2, 1, "S"), (3, 1, "S"))     # a 3 x 2 board's top
    d = Decision(1, "rod", Kind.EDGE, edges)
    e = Pressing()
    e.follow(d)
    e.tap("hole4", d)
    assert e.draft.value == (2, 1, "E") and e.tap("hole4", d) == Refusal("nothing further right")
    e.tap("hole5", d)
    e.tap("hole4", d)
    assert e.draft.value == (3, 1, "S")
    e.tap("hole5", d)                                   # (3, 1, "E") would be off the board
    assert e.draft.value == (2, 1, "E") and e.tap("hole2", d) == Refusal("nothing further up")


def test_ok_on_an_illegal_target_gives_the_games_reason():
    d = Decision(1, "move", Kind.CELL, ((1, 1), (2, 2)))
    e = Pressing()
    e.follow(d)
    e.tap("hole4", d)
    assert e.tap("ok", d, lambda key, value: f"{key} {value} is visited") == Refusal("move (2, 1) is visited")
    assert e.tap("ok", d, lambda key, value: None) == Refusal("not a legal choice")


def test_a_new_decision_starts_a_fresh_draft():
    a = Decision(1, "popup", Kind.HOLES, (1, 2), min=0, max=2)
    b = Decision(1, "whack", Kind.CHOICE, (1, 2))
    e = Pressing()
    e.follow(a)
    e.tap("hole1", a)
    e.follow(b)
    assert e.draft.value is None
    assert e.tap("ok", None) == Refusal(("nothing to decide now", "not now"))


def test_hole_faces_with_a_miss_start_on_the_miss_and_a_second_press_returns_to_it():
    d = Decision(1, "roll-1-mallet", Kind.CHOICE, (3, 4, 5, "X"))
    e = Pressing()
    e.follow(d)
    assert e.summary(d)["label"] == "X" and e.summary(d)["holes"] == [None, None, "3", "4", "5"]
    assert e.tap("hole1", d) == Refusal("hole 1 cannot be chosen")
    e.tap("hole4", d)
    assert e.summary(d)["label"] == "4"
    e.tap("hole4", d)
    assert e.tap("ok", d) == Submit("roll-1-mallet", "X")
    e.tap("hole5", d)
    assert e.tap("ok", d) == Submit("roll-1-mallet", 5)


def test_the_summary_says_what_each_hole_picks():
    labelled = Decision(1, "die", Kind.CHOICE, ("glove", "pan"), labels=("Glove", "Pan"))
    holes = Decision(1, "discard", Kind.CHOICE, (1, 3))
    stepped = Decision(1, "prize", Kind.CHOICE, tuple(range(1, 7)), labels=tuple("ABCDEF"))
    e = Pressing()
    assert e.summary(labelled)["holes"] == ["Glove", "Pan", None, None, None]
    assert e.summary(holes)["holes"] == ["1", None, "3", None, None]
    assert e.summary(stepped)["holes"] is None


def test_a_choice_with_a_default_starts_on_it_so_ok_alone_commits_the_usual_answer():
    d = Decision(1, "where", Kind.CHOICE, ("board", "line", "side"), labels=("On board", "Over line", "Off side"),
                 default="board")
    e = Pressing()
    e.follow(d)
    assert e.summary(d)["label"] == "On board" and e.tap("ok", d) == Submit("where", "board")
    e.follow(None)
    e.follow(d)
    e.tap("hole3", d)
    assert e.summary(d)["label"] == "Off side" and e.tap("ok", d) == Submit("where", "side")
