"""Bots (R-BOT-1): baseline strategies and the runner that seats them at a table."""

from croupier.bots.runner import BotRunner, to_command
from croupier.bots.strategies import Decision, EquityBot, RuleBot, Strategy, hand_bucket

__all__ = ["BotRunner", "Decision", "EquityBot", "RuleBot", "Strategy", "hand_bucket", "to_command"]
