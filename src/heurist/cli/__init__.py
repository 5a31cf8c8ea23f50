"""The ``heurist`` command. Each module here with a ``register(subparsers)`` adds subcommands."""
