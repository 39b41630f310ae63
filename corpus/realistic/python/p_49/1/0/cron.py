"""Cron expression parser: the next five run times of each expression."""
from datetime import datetime

from croniter import croniter

EXPRESSIONS = ["*/15 * * * *", "0 9 * * 1-5", "30 2 1 * *"]


def next_runs(expression, start, count=5):
    it = croniter(expression, start)
    return [it.get_next(datetime) for _ in range(count)]


if __name__ == "__main__":
    start = datetime(2024, 1, 1, 8, 0)
    for expression in EXPRESSIONS:
        runs = ", ".join(r.strftime("%a %d %H:%M") for r in next_runs(expression, start))
        print(f"{expression:<14} -> {runs}")
