"""``python -m lamagames.cli``: the ``lama`` command."""

from lamagames.cli.entry import run

if __name__ == "__main__":
    run()
