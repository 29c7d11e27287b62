"""Operations: what a host watches (health, readiness, Prometheus figures).

Nothing here changes a game; it only reads, counts and reports."""
