"""CSV statistical analyzer: per numeric column, count, mean, min and max."""
import argparse
import csv
import statistics

from tabulate import tabulate


def analyze(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    table = []
    for column in rows[0].keys():
        try:
            values = [float(r[column]) for r in rows]
        except ValueError:
            continue
        table.append([column, len(values), round(statistics.mean(values), 3), min(values), max(values)])
    return table


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("csv_file", help="the CSV file to analyze")
    args = parser.parse_args()
    print(tabulate(analyze(args.csv_file), headers=["column", "count", "mean", "min", "max"]))


if __name__ == "__main__":
    main()
