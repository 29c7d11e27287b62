"""Ostraca: an asynchronous play-by-web server for board games."""
