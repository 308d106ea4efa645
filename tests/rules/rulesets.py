"""The rule sets the rules tests share: the default and the rule book's variants."""

from scorekeeper.rules import RuleSet

SUJO = RuleSet()
LIMPO = RuleSet(deck="limpo")
FIXA = RuleSet(manilhas="fixa")
LIMPO_FIXA = RuleSet(deck="limpo", manilhas="fixa")
