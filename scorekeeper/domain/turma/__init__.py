"""The turmas: a group's tables under links of their own, their statistics, exports and import."""
