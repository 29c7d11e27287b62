"""The platform's use cases over the database, one package per domain (docs/architecture.md).

Each public function owns its transaction.
"""
