"""Amun-Re's pages: the rules page's figures (reference); its templates alone draw its board."""
