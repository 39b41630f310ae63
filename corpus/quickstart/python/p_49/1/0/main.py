"""Cron Expression Parser: validates cron expressions, explains them in
English, lists upcoming run times and computes interval statistics."""
import argparse
import json
import sys
from datetime import datetime
from pathlib import Path

from croniter import croniter, CroniterBadDateError
from dateutil import tz
from dateutil.relativedelta import relativedelta

FIELDS = [("minute", 0, 59), ("hour", 0, 23), ("day-of-month", 1, 31), ("month", 1, 12), ("day-of-week", 0, 7)]
MONTHS = ["", "January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
NAMES = {n[:3].upper(): i for i, n in enumerate(MONTHS) if n} | {d[:3].upper(): i for i, d in enumerate(DAYS[:7])}
ORDINALS = {"1": "1st", "2": "2nd", "3": "3rd"}
EXAMPLES = ["*/5 * * * *", "0 9 * * 1-5", "0 0 1,15 * *", "30 4 * * SUN"]


def validate(expr: str) -> list[str]:
    parts = expr.split()
    if len(parts) != 5:
        return [f"expected 5 fields, got {len(parts)}"]
    errors = []
    for pos, (part, (name, lo, hi)) in enumerate(zip(parts, FIELDS), start=1):
        for item in part.split(","):
            base, _, step = item.partition("/")
            if step and not step.isdigit():
                errors.append(f"Field {pos} ({name}): invalid step '{step}'")
            for value in base.replace("-", " ").replace("#", " ").split():
                value = value.rstrip("LW").upper()
                if value in ("", "*", "?"):
                    continue
                number = NAMES.get(value, int(value) if value.isdigit() else None)
                if number is None:
                    errors.append(f"Field {pos} ({name}): unrecognised value '{value}'")
                elif not lo <= number <= hi:
                    limit = f"exceeds maximum {hi}" if number > hi else f"is below minimum {lo}"
                    errors.append(f"Field {pos} ({name}): value {number} {limit}")
    if not errors and not croniter.is_valid(expr):
        errors.append("expression rejected by croniter (impossible or malformed)")
    return errors


def describe_list(field: str, names: list[str] | None = None) -> str:
    def label(v: str) -> str:
        v = str(NAMES.get(v.upper(), v))
        return names[int(v)] if names and v.isdigit() else v
    chunks = []
    for item in field.split(","):
        if "#" in item:
            day, nth = item.split("#", 1)
            chunks.append(f"{ORDINALS.get(nth, nth + 'th')} {label(day)} of the month")
        elif "-" in item:
            start, end = item.split("-", 1)
            chunks.append(f"{label(start)} through {label(end)}")
        else:
            chunks.append(label(item))
    return " and ".join(chunks)


def describe(expr: str) -> str:
    minute, hour, dom, month, dow = expr.split()
    if minute.startswith("*/") and hour == "*":
        text = f"Every {minute[2:]} minutes"
    elif minute.isdigit() and hour.isdigit():
        text = f"At {datetime(2000, 1, 1, int(hour), int(minute)):%I:%M %p}"
    else:
        text = f"At minute {describe_list(minute)} past hour {describe_list(hour)}"
    if dom == "L":
        text += ", on the last day of the month"
    elif dom not in ("*", "?"):
        text += f", on day {describe_list(dom)} of the month"
    if dow not in ("*", "?"):
        text += f", every {describe_list(dow, DAYS)}"
    if month not in ("*", "?"):
        text += f", in {describe_list(month, MONTHS)}"
    return text


def analyse(expr: str, start: datetime, count: int) -> dict:
    itr = croniter(expr, start)
    runs = [itr.get_next(datetime) for _ in range(count)]
    gaps = [(b - a).total_seconds() for a, b in zip(runs, runs[1:])]
    # count runs in the coming year; for very frequent schedules extrapolate from the first 500
    year_itr, horizon, seen, last = croniter(expr, start), start + relativedelta(years=1), 0, start
    while seen < 500 and (nxt := year_itr.get_next(datetime)) <= horizon:
        seen, last = seen + 1, nxt
    year_seconds = (horizon - start).total_seconds()
    per_year = seen if seen < 500 else round(seen * year_seconds / (last - start).total_seconds())
    return {
        "expression": expr,
        "description": describe(expr),
        "next_runs": [r.isoformat() for r in runs],
        "next_runs_local": [r.strftime("%a %d %b %Y %H:%M %Z") for r in runs],
        "gap_seconds": {"min": min(gaps, default=0), "max": max(gaps, default=0),
                        "avg": sum(gaps) / len(gaps) if gaps else 0},
        "executions": {"per_year": per_year, "per_month": round(per_year / 12, 1),
                       "per_week": round(per_year / 52.18, 1), "per_day": round(per_year / 365.25, 2)},
    }


def print_analysis(result: dict) -> None:
    print(f"\n{result['expression']!r}: {result['description']}")
    for iso, local in zip(result["next_runs"], result["next_runs_local"]):
        print(f"   {iso}   ({local})")
    gaps = result["gap_seconds"]
    print(f"   gaps: min {gaps['min'] / 60:.0f} min, avg {gaps['avg'] / 60:.0f} min, max {gaps['max'] / 60:.0f} min")
    ex = result["executions"]
    print(f"   runs: {ex['per_day']}/day, {ex['per_week']}/week, {ex['per_month']}/month, {ex['per_year']}/year")


def main() -> int:
    parser = argparse.ArgumentParser(description="Parse and explain cron expressions.")
    parser.add_argument("expression", nargs="?")
    parser.add_argument("--next", type=int, default=10, dest="count")
    parser.add_argument("--from", dest="start", help="ISO start time (default: now)")
    parser.add_argument("--timezone", default="UTC")
    parser.add_argument("--check", help="ISO datetime to test against the expression")
    parser.add_argument("--output", type=Path, default=Path("cron_analysis.json"))
    args = parser.parse_args()

    zone = tz.gettz(args.timezone)
    if zone is None:
        print(f"error: unknown time zone {args.timezone!r}", file=sys.stderr)
        return 1
    start = datetime.fromisoformat(args.start).replace(tzinfo=zone) if args.start else datetime.now(zone)
    expressions = [args.expression] if args.expression else EXAMPLES
    if not args.expression:
        args.count = 5
        print(f"No expression given; demonstrating {len(EXAMPLES)} examples (time zone {args.timezone})")

    results, status = [], 0
    for expr in expressions:
        errors = validate(expr)
        if errors:
            print(f"\n{expr!r} is invalid:\n   " + "\n   ".join(errors))
            status = 1
            continue
        try:
            result = analyse(expr, start, args.count)
        except CroniterBadDateError:
            print(f"\n{expr!r} is invalid:\n   impossible combination, it never fires (e.g. Feb 31)")
            status = 1
            continue
        if args.check:
            moment = datetime.fromisoformat(args.check).replace(tzinfo=zone)
            result["check"] = {"datetime": moment.isoformat(), "matches": croniter.match(expr, moment)}
            print(f"\n{moment.isoformat()} {'matches' if result['check']['matches'] else 'does not match'} {expr!r}")
        print_analysis(result)
        results.append(result)

    args.output.write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(f"\nSaved analysis of {len(results)} expression(s) to {args.output}")
    return status


if __name__ == "__main__":
    sys.exit(main())
