"""The torneios: a bar's tournament on many Tento tables, its bracket derived from their logs."""
