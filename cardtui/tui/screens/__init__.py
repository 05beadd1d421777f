"""The app's screens, each typed by what it gives back when dismissed."""
