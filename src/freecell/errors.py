"""The errors the library raises on purpose: one base, :class:`FreecellError`, and one
class for each kind of refusal, as python-chess splits its errors by cause.

Each module defines the errors it raises as subclasses of these four (an illegal move is
an :class:`InvalidInputError`, an unknown game a :class:`NotFoundError` ...), and the API
answers each kind with its own status (``docs/api.md``). An exception of any other class
is a bug: the server answers it with a 500, which no test may see.

>>> from freecell import Deal, find_rules
>>> try:
...     Deal(find_rules("standard"), 0)
... except InvalidInputError as error:
...     print(error)
deal 0 is out of range: deals run from 1 to 8,589,934,591
"""

from __future__ import annotations


class FreecellError(Exception):
    """An error the library raises on purpose; its message is a sentence a player can read."""


class InvalidInputError(FreecellError, ValueError):
    """Input that is malformed, names nothing there is, is out of range, or that the rules
    refuse: a card, a move, a board, a deal, a ruleset."""


class NotFoundError(FreecellError, LookupError):
    """No game or lesson has the id asked for."""


class NotPossibleNowError(FreecellError):
    """An action that the game's present state does not allow: nothing to undo, the game
    is over, the game is not trivially won yet."""


class UnavailableError(FreecellError):
    """A right request that cannot be done or kept now: the solver is busy, the store
    cannot be written. Nothing changed; the same request may succeed later."""
