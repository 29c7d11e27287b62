"""Advanced Civilization's pages: the map drawn from the board's polygons (map), the trade cards and the
calamity panel (cards), the market, the shop and the points (market)."""
