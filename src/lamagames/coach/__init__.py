"""Coach: game reviews (points or win chance lost per decision) for any game with a
``review`` extra in its spec (:mod:`lamagames.coach.review`), and their chart
(:mod:`lamagames.coach.chart`). Generic: it imports no game package."""
