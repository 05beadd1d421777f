"""Small widgets of the card table: a hand, a trick, seats, scores, the log, the grid, the prompt."""
