"""How to play each game, said to a table that has never played it: the theme, the goal, the scoring, a turn
step by step, the buttons, a first game's length and the rule text's jargon in plain words. The TV shows it
before round 1, a phone's "how to play" reads it in full, a seat's OLED shows the one-line goal, the lobby
the theme and length, and ``molebox variants`` prints it above the settings (docs/rules/ has the detail).

A taught game says more (docs/teaching.md): what each decision means in the game's own terms (``means``, by the
decision's key), and the first time each rule fires, why its outcome happened (``because``, by the event's kind),
in full and in a few words for a small glass. Figures a variant setting changes are the setting's name in braces
(``{target}``), filled in from the match's settings.
"""
from __future__ import annotations

from dataclasses import dataclass

from .model import N_


@dataclass(frozen=True)
class HowToPlay:
    theme: str                            # one or two sentences: what the game is about, in its own world
    goal: str                             # one sentence: how you win
    goal_short: tuple[str, ...]           # the goal on an OLED, longest first; the last fits two lines of the
                                          # 0.96" glass's prompt in the pseudo-locale (a goal card's)
    scoring: tuple[str, ...]              # 1-3 sentences: how you score
    turn: tuple[str, ...]                 # 2-5 steps of one turn (or round), in the order played, naming the buttons
    buttons: str                          # what 1-5 and OK do in the main decision, 40 characters at most
    minutes: tuple[int, int]              # a first game's length, low and high, in minutes
    jargon: tuple[tuple[str, str], ...] = ()   # the rule text's own terms a table meets, each with a plain sentence
    means: tuple[tuple[str, str, str], ...] = ()    # (decision key, what choosing means, in fewer words)
    because: tuple[tuple[str, str, str], ...] = ()  # (event kind, why it happened: the rule, in fewer words)


#: the settings' words the texts say (whose sheet you whack)
WORDS = (N_("left"), N_("right"))

HOW_TO_PLAY: dict[str, HowToPlay] = {
    "whakka-mole": HowToPlay(
        theme=N_("You are the moles: pop up from your own {holes} holes to score before a mallet finds you. "
                 "Everyone also swings a mallet at the holes of the player to their {whack_direction}."),
        goal=N_("Have the most points at the end of the turn in which someone reaches {target}."),
        goal_short=(N_("Most points when someone reaches {target}"), N_("Most points at {target} wins"),
                    N_("Race to {target} points"), N_("Race to {target}")),
        scoring=(N_("Every turn you score 1 point for each token on your sheet; tokens stay there until you are hit."),
                 N_("Whacking a hole that holds a token scores {whack_points} points and sends every token on that sheet home."),
                 N_("The game ends after a turn in which anyone has {target} points; the most points wins.")),
        turn=(N_("Press 1-5 to choose the holes your moles pop up from (none is fine), then OK."),
              N_("Press 1-5 to choose one hole to whack on the sheet of the player to your {whack_direction}, then OK."),
              N_("Hold OK to change your picks until the last player locks in; then all picks show at once."),
              N_("Each hole you popped up from gets a token; a whack on a hole with a token empties that sheet."),
              N_("Then everyone scores 1 point for each token still on their sheet.")),
        buttons=N_("1-5 pop up or whack, OK lock in"),
        # 12-13 turns when people pop up freely (casual bots, 3-4 seats, 20 games each), about 30 when
        # everyone plays it safe (strong bots); two secret picks and a reveal take 30-40 seconds a turn.
        minutes=(8, 20),
        jargon=(
            (N_("play sheet"), N_("Your row of five mole holes, shown along the top of your screen.")),
            (N_("token"), N_("A mole out of its hole: each token on your sheet scores 1 point a turn; you have {tokens}.")),
            (N_("pop up"), N_("Putting a token into a hole: your mole comes out to score, and risks a whack.")),
            (N_("whack"), N_("Your one guess each turn at a hole on the sheet of the player to your {whack_direction}.")),
        ),
        means=(
            ("popup", N_("Moles up score 1 point a turn each, but a whack on one of their holes sends them all home"),
             N_("Up: 1 point a turn")),
            ("whack", N_("Guess a hole of theirs: a token there scores {whack_points} and sends their tokens home"),
             N_("A token: +{whack_points}")),
        ),
        because=(
            ("popup", N_("each hole you pop up from takes a token from your supply, and it scores until it is hit"),
             N_("a token a hole")),
            ("whack", N_("a whack on a hole with a token scores {whack_points} and sends that sheet's tokens home; "
                         "an empty hole is a miss"), N_("a token: +{whack_points}")),
            ("score", N_("every turn each token on your sheet scores 1 point"), N_("1 a token")),
            ("game_over", N_("the game ends after a turn in which anyone has {target} points: the most points wins"),
             N_("{target} ends it")),
        ),
    ),
    "mole-park": HowToPlay(
        theme=N_("Welcome to Mole Park: whack moles with a boxing glove, frying pan or mallet, and trade their stars "
                 "for prizes. You must whack before you win!"),
        goal=N_("Go for the Crown at the start of a round and reach {crown} stars to win King Mole's Crown."),
        goal_short=(N_("Go for the Crown with {crown} stars"), N_("Reach {crown} for the Crown"),
                    N_("Crown at {crown} stars"), N_("Crown at {crown}"), N_("Win the Crown")),
        scoring=(N_("Each mole you whack is worth 1 to 5 stars; only you see the stars in your hand."),
                 N_("Roll the Prize die to cash in: your moles, the die and your earlier prizes add up to your stars."),
                 N_("Highest first, each takes a face-up prize worth at most their stars; "
                    "too few stars for any wins nothing.")),
        turn=(N_("Moles are dealt face down into the five holes; moles nobody took stay there."),
              N_("Anyone who could reach {crown} stars is asked first: 1 to pass, 2 to go for the Crown, then OK."),
              N_("Pick a die in secret: 1 Boxing Glove, 2 Frying Pan, 3 Giant Mallet or 4 Prize die, then OK."),
              N_("One die on a hole takes all its moles, several dice split them evenly, and X misses."),
              N_("Prize die rollers add up their stars and pick prizes, highest first, then discard their moles.")),
        buttons=N_("1-3 whack, 4 Prize die, OK lock in"),
        # Simulated games last a median of 9 to 13 rounds with sensible play, 13 to 17 with random play
        # (docs/rules/mole-park.md, Game length); a round of secret picks, rolls and prizes takes 1-2 minutes.
        minutes=(15, 35),
        jargon=(
            (N_("Whacking dice"), N_("The Boxing Glove can hit any hole, the Frying Pan holes 1-3 "
                                     "and the Giant Mallet holes 3-5; an X misses.")),
            (N_("Prize die"), N_("The die you roll to cash in your whole hand for a prize; it adds 1 to 4 stars.")),
            (N_("hand"), N_("The moles you have whacked, face down; you may keep {hand_limit} and must discard the rest.")),
            (N_("prize stand"),
             N_("One of six piles of prizes worth 10, 15, 20, 25, 30 or 35 stars, its top prize face up.")),
            (N_("star track"), N_("Where the cash-in totals line up: the highest total picks a prize first.")),
            (N_("King Mole"), N_("The player who breaks ties, and picks last in a tie of their own.")),
            (N_("Going for the Crown"),
             N_("Declaring at the start of a round that you cash in for {crown} stars; short of {crown} you get nothing.")),
            (N_("Showdown for the Crown"),
             N_("If several players reach {crown}, they roll all four dice once; the most stars wins.")),
            (N_("moles flee"),
             N_("With 2 or 3 players, a hole holding {flee_at} moles at the end of a round is emptied.")),
        ),
        means=(
            ("die", N_("Glove, Pan or Mallet whacks a hole its roll lands on; the Prize die cashes in your hand"),
             N_("4: cash in")),
            ("crown", N_("Going for the Crown: cash in this round for {crown} stars or more, or win nothing"),
             N_("{crown} or nothing")),
            ("discard", N_("Keep at most {hand_limit} moles: the ones you discard are gone"),
             N_("Keep {hand_limit}")),
            ("prize", N_("Take a face-up prize worth at most your stars: it counts at every later cash-in"),
             N_("Prize: stars later")),
        ),
        because=(
            ("deal", N_("each round moles are dealt face down into the five holes; moles nobody took stay"),
             N_("moles dealt")),
            ("roll", N_("a whacking die rolls for the hole it hits; X misses"), N_("die picks a hole")),
            ("whack", N_("one die on a hole takes all its moles; several dice share them evenly, the rest stay"),
             N_("dice share moles")),
            ("cash_in", N_("the Prize die cashes in: your moles, the die and your earlier prizes add up to your stars"),
             N_("hand + die")),
            ("no_prize", N_("a total below every face-up prize wins nothing this round"), N_("too few stars")),
            ("prize", N_("highest total first, each takes the best face-up prize their stars reach"),
             N_("best prize reached")),
            ("restock", N_("a stand turns up its next prize when its top one is taken"), N_("next prize up")),
            ("discard", N_("cashed-in moles, and moles over the hand limit of {hand_limit}, are discarded"),
             N_("moles discarded")),
            ("flee", N_("with 2 or 3 players a hole holding {flee_at} moles at a round's end is emptied"),
             N_("{flee_at} moles flee")),
            ("crown", N_("anyone whose cash-in could reach {crown} stars may go for the Crown as a round starts"),
             N_("Crown at {crown}")),
            ("crown_failed", N_("going for the Crown and cashing in short of {crown} stars wins nothing"),
             N_("short of {crown}")),
            ("crown_won", N_("cashing in for {crown} stars or more while going for it wins the Crown and the game"),
             N_("{crown}: Crown")),
            ("order", N_("King Mole breaks ties, and picks last in a tie of their own"), N_("King breaks ties")),
            ("showdown", N_("when several reach {crown}, they roll all four dice once: the most stars wins"),
             N_("dice decide")),
        ),
    ),
    "mole": HowToPlay(
        theme=N_("One player's mole, a large coin, tries to escape over the winning line of the board. "
                 "The other player flicks {mignettes} small coins, the mignettes, to stop it."),
        goal=N_("Be the first to score {target} points, at least {margin} ahead of the other player."),
        goal_short=(N_("First to {target} points, {margin} ahead"), N_("First to {target} by {margin}")),
        scoring=(N_("When the mole wins a round, its player scores 1 point and plays the mole again."),
                 N_("When the mignettes win, nobody scores and the players swap roles."),
                 N_("A tie scores nothing and the round is played again with the same roles.")),
        turn=(N_("Each round the mignettes go first: press 1 to flick all or 2 for Nasdaq, then OK, then flick."),
              N_("Then the mole's player presses a call their screen offers (Flick, Taupiniere, Nasdaq), OK, "
                 "and flicks."),
              N_("After every turn the flicker answers the box's questions with 1-5 and OK; "
                 "a quiet turn is OK three times."),
              N_("If the other player saw a push instead of a flick, they press 1 and OK to claim the round."),
              N_("Turns alternate until the mole escapes or is stopped; the box says who won the round.")),
        buttons=N_("1-5 call or answer, OK confirm"),
        # A match to 11 by two is some 25-50 rounds (only the mole scores and a win for the mignettes swaps
        # the coins; the scripted match took 55), each a few turns of flicks at 1-1.5 minutes a round.
        minutes=(25, 75),
        jargon=(
            (N_("mole"), N_("The large coin: its player wins the round when it escapes over the winning line.")),
            (N_("mignettes"), N_("The {mignettes} small coins that block the mole or knock it off a side of the board.")),
            (N_("winning line"), N_("The end of the board the mole is trying to cross.")),
            (N_("nichee"), N_("The area of the board where the mignettes start every round.")),
            (N_("Rosserie"), N_("A marked rectangle: a mignette left fully in it dies; a mole even partly in it "
                                "cannot be knocked off a side.")),
            (N_("mole circle"), N_("A marked circle that works like Rosserie.")),
            (N_("Nasdaq"),
             N_("The call for not playing: the mole stays where it is, or a mignette is left unflicked.")),
            (N_("Taupiniere"),
             N_("The mole's call to kill exactly two mignettes with one flick; any other number loses.")),
            (N_("Gad"), N_("A mignette touching the mole: the mole may not call Nasdaq, and a mignette on top "
                           "wins for the mignettes.")),
            (N_("loup line"), N_("A line near the back on some boards: a mole behind it cannot win that turn.")),
            (N_("push"),
             N_("A coin shoved instead of flicked: the other player may claim it, and the pusher loses the round.")),
            (N_("recompense"),
             N_("Also called Yekini: a tie, replayed, when the mole is knocked off a side or the back "
                "as every mignette dies.")),
        ),
        means=(
            ("call", N_("Your call before you flick: flick, Nasdaq (not play), or Taupiniere (kill exactly two)"),
             N_("Call, then flick")),
            ("where", N_("Say where the mole lies now, as everyone sees it on the board"), N_("Where is it?")),
            ("dead", N_("Say which mignettes died: fully in Rosserie or the circle, or off the board"),
             N_("Which died?")),
            ("push", N_("Claim a push only if you saw the coin shoved, not flicked"), N_("Saw a push?")),
        ),
        because=(
            ("call", N_("every turn begins with a call, made before the flick"), N_("call first")),
            ("flick", N_("after each flick the flicker tells the box where the coins lie"), N_("told after flick")),
            ("died", N_("a mignette left fully in Rosserie or the circle, or off the board, dies"),
             N_("mignette died")),
            ("push", N_("a coin shoved instead of flicked may be claimed: the pusher loses the round"),
             N_("a push loses")),
            ("round_over", N_("only the mole scores: its win is 1 point, and a win for the mignettes swaps the roles"),
             N_("only moles score")),
            ("game_over", N_("the first to {target} points, {margin} ahead, wins"), N_("{target} by {margin}")),
        ),
    ),
    "mole-hill": HowToPlay(
        theme=N_("In an English country garden a mole digs up the perfect lawn while the gardener fences it in "
                 "with rods. You each play the mole for one round and the gardener for the other."),
        goal=N_("Score more points as the mole than the other player does in their round as the mole."),
        goal_short=(N_("Score the most as the mole"), N_("Best mole score wins"), N_("Best mole score"),
                    N_("Best mole")),
        scoring=(N_("The mole's first {light_pieces} spaces leave light pieces worth nothing; "
                    "every space after that scores 1 point."),
                 N_("Each red flower space the mole visits scores 2 more points, and each white flower 1.")),
        turn=(N_("The mole chooses a start space with 1 left, 2 up, 3 down and 4 right, then OK."),
              N_("The gardener puts one rod on an edge between two spaces: 1-4 move it, 5 turns it, OK puts it down."),
              N_("The mole moves to a never-visited space next to it, straight or diagonally: 1-4 pick it, OK moves."),
              N_("A rod blocks a straight move; a diagonal move needs one way round the corner free of rods."),
              N_("The round ends when the mole is boxed in or out of pieces; then you swap roles.")),
        buttons=N_("1 left, 2 up, 3 down, 4 right, OK go"),
        # The rules say about 20 minutes; each round is at most 22 mole moves and 21 rods, and a first game's
        # cursor presses take 10-20 seconds a turn: 2 rounds x 43 turns.
        minutes=(20, 35),
        jargon=(
            (N_("boundary rod"),
             N_("The gardener's fence: a rod on the edge between two spaces that the mole cannot cross.")),
            (N_("stack"), N_("The mole's pile of pieces: each move leaves its bottom piece on the space it leaves.")),
            (N_("light pieces"), N_("The mole's first {light_pieces} pieces, which score nothing.")),
            (N_("dark pieces"), N_("The mole's last {dark_pieces} pieces, each worth 1 point once it is on the board.")),
            (N_("flower spaces"), N_("Red flowers score 2 points and white flowers 1 when the mole visits them.")),
            (N_("centre space"),
             N_("After moving onto the centre, the mole's next move may jump to any unvisited space.")),
        ),
        means=(
            ("place", N_("Start anywhere: from there the mole never visits a space twice"), N_("Start anywhere")),
            ("rod", N_("Fence the mole: a rod blocks a straight move across its edge"), N_("Block the mole")),
            ("move", N_("Move one space, straight or diagonal, to a space never visited"), N_("Never go back")),
        ),
        because=(
            ("place", N_("the mole may start on any space"), N_("start anywhere")),
            ("rod", N_("a rod blocks a straight move across its edge; a diagonal needs one way round the corner free"),
             N_("rods block")),
            ("move", N_("the mole leaves the bottom piece of its stack on every space it leaves; the first "
                        "{light_pieces} are light and score nothing"), N_("a piece left")),
            ("jump", N_("after the centre the mole may jump to any space never visited"), N_("centre: jump")),
            ("round_over", N_("the round ends when the mole is boxed in or out of pieces: 1 point a dark piece, "
                              "2 a red flower, 1 a white"), N_("boxed in")),
            ("game_over", N_("the better score as the mole wins"), N_("best mole wins")),
        ),
    ),
    "mouse-madness": HowToPlay(
        theme=N_("Mice race along a track to the cheese, pushing each other about and falling down mouse holes."),
        goal=N_("Be the first mouse to land exactly on the cheese."),
        goal_short=(N_("Land exactly on the cheese"), N_("Land on the cheese"), N_("Land on cheese")),
        scoring=(N_("There are no points: the first mouse to land exactly on the cheese wins at once."),
                 N_("A roll that would pass the cheese moves your mouse back instead.")),
        turn=(N_("Before the first turn everyone rolls: the highest starts (ties roll again), "
                 "then play goes clockwise."),
              N_("The box rolls your die; press 1 to move that many spaces forward or 2 to move back, then OK."),
              N_("Landing on a mouse hole drops your mouse to the space its arrow points to."),
              N_("Land on a mouse and you must push it one space; land next to one and you may jump over it."),
              N_("When you can push or jump more than one way, choose on your screen with 1-5, then OK.")),
        buttons=N_("1 forward, 2 back, OK go"),
        # Simulated games last 11-12 rounds (half of them 8 to 17) at any table size: 24 turns at 2 seats,
        # about 60 at 6 (docs/rules/mouse-madness.md); the box rolls, so a turn takes 10-20 seconds.
        minutes=(5, 25),
        jargon=(
            (N_("mouse hole"),
             N_("A space with an arrow: a mouse landing there falls back to the space the arrow points to.")),
            (N_("cheese"), N_("The last space of the track: land on it exactly to win.")),
            (N_("start space"),
             N_("Where every mouse begins; after that, no mouse can move or be pushed back onto it.")),
            (N_("push"),
             N_("Moving a mouse you land on one space forward or back; a mouse it lands on is pushed on too.")),
            (N_("jump"),
             N_("Hopping over a mouse just in front of or behind you, two spaces on; you push or jump, not both.")),
        ),
        means=(
            ("direction", N_("1 moves forward by the roll, 2 back; past the cheese you must go back"),
             N_("1 on, 2 back")),
            ("push", N_("Land on a mouse and you push it one space: choose which way"), N_("Push it")),
            ("jump", N_("Jump over the mouse next to you, two spaces on, or stay"), N_("Jump or stay")),
        ),
        because=(
            ("start_roll", N_("before the first turn everyone rolls: the highest starts, and ties roll again"),
             N_("highest starts")),
            ("first", N_("the highest roll goes first, then play goes clockwise"), N_("highest first")),
            ("move", N_("you move the roll's spaces, forward or back; a roll past the cheese goes back"),
             N_("move the roll")),
            ("push", N_("a mouse landing on another pushes it one space"), N_("pushed 1")),
            ("fall", N_("a mouse landing on a mouse hole falls to where its arrow points"), N_("fell down")),
            ("jump", N_("a mouse next to another may jump over it, two spaces on"), N_("jumped over")),
            ("win", N_("the first mouse to land exactly on the cheese wins"), N_("exactly on cheese")),
        ),
    ),
}
