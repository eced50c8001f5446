"""The rules panel of each preset, written from its seed document, and our own help.

``000`` is the general rules page (FreeCell and its variations), ``001`` the FreeCell
Solitaire app, ``002`` a browser table with lessons, ``003`` Cardems. Paragraphs are
separated by a blank line. The text states what our engine enforces for the preset.
"""

from __future__ import annotations

from typing import Final

_LAYOUT: Final = (
    "Deal all 52 cards face up into eight columns: the four on the left get seven cards, the four "
    "on the right six. Above them sit four free cells on the left and four foundations on the "
    "right, all empty at the start. Every card is visible, so the game is one of planning."
)
_MOVES: Final = (
    "Only the exposed card at the bottom of a column, or a card in a free cell, may move. It may go "
    "into an empty free cell (a cell holds one card), onto its foundation, or onto a column."
)
_TABLEAU: Final = (
    "In the columns, a card goes on a card one rank higher of the other colour: a black 7 on a red 8. "
    "Hearts and diamonds are red, clubs and spades black. An empty column takes any card."
)
_FOUNDATIONS: Final = (
    "Each foundation holds one suit, built up from its ace to its king. Cards on the foundations "
    "stay there."
)
_CAPACITY: Final = (
    "An ordered run (one rank lower each time, colours alternating) moves as a block if it fits: "
    "(empty free cells + 1) cards, doubled for each empty column. An empty column that is the target does not count. "
    "With four empty cells and no empty column, five cards move together; with one empty cell and "
    "one other empty column, four."
)
_WIN: Final = (
    "You win when every card is on the foundations. There is no time limit and the game may be "
    "paused at any point. When no legal move is left, the game is lost: undo, restart or deal again."
)

RULES_TEXT: Final[dict[str, str]] = {
    "standard": "\n\n".join((_LAYOUT, _MOVES, _TABLEAU, _FOUNDATIONS, _CAPACITY, _WIN)),
    "strict": "\n\n".join((
        _LAYOUT, _MOVES, _TABLEAU, _FOUNDATIONS,
        "Strictly, one card moves at a time. You may still ask for a run to move, if there is room "
        "to carry it card by card through the free cells and empty columns: (empty cells + 1) "
        "cards, doubled for each empty column. It is played as the single-card moves it stands for, and each of them "
        "counts as a move and is undone on its own.",
        _WIN,
    )),
    "supermove": "\n\n".join((
        _LAYOUT, _MOVES, _TABLEAU, _FOUNDATIONS,
        "SuperMove FreeCell makes the block-move convention formal: before each run moves, its "
        "maximum length is (empty free cells + 1) cards, doubled for each empty column, not counting an empty target "
        "column, and no run may exceed it. The move calculator shows the capacity at all times.",
        _WIN,
    )),
    "bakers-game": "\n\n".join((
        "Baker's Game is FreeCell's ancestor, published by Martin Gardner in 1968: the same layout, "
        "but columns are built by suit.",
        _LAYOUT, _MOVES,
        "In the columns, a card goes only on the card one rank higher of the same suit: the 7 of "
        "spades on the 8 of spades. An empty column takes any card. This makes the game much harder, "
        "and a good share of the deals cannot be won.",
        _FOUNDATIONS,
        "A run built in suit moves as a block if it fits: (empty free cells + 1) cards, doubled for each empty column.",
        _WIN,
    )),
    "eight-off": "\n\n".join((
        "Eight Off has eight free cells. The cards are dealt into eight columns of six, and the last "
        "four go one each into the first four free cells.",
        _MOVES,
        "In the columns, a card goes only on the card one rank higher of the same suit, as in Baker's "
        "Game. Only a king may fill an empty column.",
        _FOUNDATIONS,
        "A run built in suit moves as a block if it fits: (empty free cells + 1) cards, since empty "
        "columns take only kings and so cannot hold the cards of a run in passing.",
        _WIN,
    )),
    "double": "\n\n".join((
        "Double FreeCell is played with two 52-card decks shuffled together: 104 cards in ten "
        "columns, with six free cells and eight foundations, two for each suit.",
        _MOVES, _TABLEAU,
        "Each foundation holds one suit, from its ace to its king; each suit fills two of them. "
        "Cards on the foundations stay there.",
        _CAPACITY,
        "You win when all 104 cards are on the foundations.",
    )),
    "app": "\n\n".join((
        "All 52 cards are visible. You move them one at a time between 8 columns, the free cells and "
        "4 foundations, and win when every card is on the foundations, from ace to king, suit by suit.",
        "The deck is dealt face up into 8 columns of 7, 7, 7, 7, 6, 6, 6 and 6 cards. The game is "
        "played with 4, 2 or 1 free cells, chosen in the New game window; removed cells are not "
        "drawn and do not count.",
        "You move the last card of a column or a card in a free cell. On a column it goes on a card of "
        "the opposite colour and one rank higher. A free cell takes any card and holds one. A "
        "foundation starts with the ace and goes up in the same suit. An empty column takes any card "
        "or a whole sequence.",
        "An ordered sequence moves as a group of up to (empty free cells + 1) cards, doubled for each empty column. "
        "When the group goes into an empty column, that column does not count.",
        "No card goes to the foundations on its own: tapping a card once tries to send it there. The "
        "top card of a foundation may be brought back onto the tableau. Undo goes back up to 100 "
        "actions.",
        "Scoring: +10 for a card placed on a foundation (once per card: a card taken back and sent "
        "home again earns nothing more), +5 for a card from a cell placed on the tableau, 0 for any "
        "other move. Undo takes back the points a move earned; the score never goes below zero.",
        "The game is lost when no useful move is left: you then undo or start over.",
    )),
    "cardems": "\n\n".join((
        "Move every card to the four suit foundations, each built from ace to king. The deck is dealt "
        "round-robin into eight columns: the first four get seven cards, the other four six. Four free "
        "cells and four foundations start empty.",
        "Build columns down in alternating colours: a red 6 on a black 7. A free cell holds one card. "
        "A foundation starts with its ace and takes the next higher card of its suit. Any card or "
        "valid group may fill an empty column.",
        "A group must be one continuous descending, alternating-colour run, and may move if it fits: "
        "(1 + empty free cells) cards, doubled for each empty column, not counting an empty target column. With two "
        "empty cells and one other empty column, six cards go onto an occupied column, but only three "
        "into an empty one.",
        "A foundation card may come back to a free cell or the tableau where that place accepts it.",
        "Scoring starts at 0: +10 for each card moved to a foundation, -15 for a card moved back from "
        "one, and the score never goes below zero. The only way to win is four complete foundations.",
    )),
}

HELP_TEXT: Final = (
    "Our help, on top of every preset. Hint gives the next move of a winning line found by our "
    "solver, and says so when the position can no longer be won. The status light says, after every "
    "move, whether the position is winnable, not winnable, or unknown (the search reached its limit: "
    "a longer search follows, up to 30 s, while you play on); switch it off if you want no help. "
    "When a move loses a game that could be won, the game names it "
    "and Rewind takes you back to the last winnable position. Solution steps through a winning line, "
    "or plays it at the speed you choose (keys . and , step it), and you may take over at any step; "
    "Copy puts the rest of the line on the clipboard in standard notation. New game can deal only "
    "deals the solver has won, graded easy, medium or hard, or play a position of your own pasted in "
    "Freecell Solver's board format, a game in progress too. The move calculator shows how many cards "
    "may move now, with the formula filled in. Undo, redo and restart are always there (within the "
    "preset's undo limit); the game is saved after every move, so a reload or a restart of the server "
    "loses nothing. When every card can go home by itself, Finish plays the rest."
)
