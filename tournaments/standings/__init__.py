"""Standings from finished league games: ``results.py`` reads a game as the statistics see it,
``stats.py`` rates the bots (OpenSkill) and gives mean points with confidence intervals,
``sequential.py`` says when the order of adjacent bots is known (the league may stop), and
``league.py`` makes a league's standings from its stored results (docs/standings.md).
"""
