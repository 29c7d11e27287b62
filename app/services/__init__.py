"""The platform's use cases over the database. Each public function owns its transaction."""
