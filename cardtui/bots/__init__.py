"""Computer players: each sees only a seat's PlayerView."""
