"""cardtui: Hearts, Spades, cutthroat Spades and Eight of Spades in the terminal."""

__version__ = "0.1.0"
