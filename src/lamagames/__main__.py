"""``python -m lamagames``: the ``lama`` command."""

from lamagames.cli.entry import run

if __name__ == "__main__":
    run()
