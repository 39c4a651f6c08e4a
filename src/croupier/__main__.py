"""``python -m croupier …``: the ``croupier`` command without its console script (the
supervisor of ``croupier serve --processes N`` starts its children this way)."""

from croupier.cli import main

main()
