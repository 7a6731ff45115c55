"""Leagues: schedules with seat rotation and duplicate deals, bot processes, ratings, standings."""
