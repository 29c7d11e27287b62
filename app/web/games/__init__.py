"""Each game's presentation on the web, one package a game: what its board, panels and forms need laid out
in Python before its templates (templates/games/<game>/) draw them."""
