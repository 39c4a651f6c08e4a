"""``python -m croupier.server``: serve with settings from the environment."""

from croupier.server.serve import serve
from croupier.server.settings import Settings

serve(Settings.from_env())
