"""Casino games played against the house: Texas Hold'em Bonus (SPEC §10).

``croupier.casino`` imports only ``croupier.engine`` (cards, shufflers, evaluators, errors).
"""
