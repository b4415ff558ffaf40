"""Toy Race: a tiny two-player game with a chance node, used to show that a new game is one
package plus one spec (:mod:`tests.toygame.spec`) with no edit to ``cli/``, ``web/`` or
``sim/``."""
