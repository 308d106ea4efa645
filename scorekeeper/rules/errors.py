"""The one exception the rules raise."""


class RulesError(ValueError):
    """Invalid input to the rules; the message is pt-BR and names the rule broken."""
