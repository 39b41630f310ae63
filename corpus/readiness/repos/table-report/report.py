"""The experiment's runs as a table: jq selects the fields, tabulate lays them out."""
import json
import subprocess

from tabulate import tabulate


def main() -> None:
    picked = subprocess.run(["jq", "-c", "[.runs[] | [.name, .score]]", "results.json"], check=True, capture_output=True, text=True)
    print(tabulate(json.loads(picked.stdout), headers=["run", "score"]))


if __name__ == "__main__":
    main()
