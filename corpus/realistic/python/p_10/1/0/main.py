"""Duplicate record finder: fingerprints records in a Redis set."""
import hashlib

import redis

RECORDS = [
    {"name": "Ada Lovelace", "email": "ada@example.org"},
    {"name": "Alan Turing", "email": "alan@example.org"},
    {"name": "ada lovelace", "email": "ADA@example.org"},
]


def fingerprint(record):
    canonical = "|".join(str(record[k]).strip().lower() for k in sorted(record))
    return hashlib.sha256(canonical.encode()).hexdigest()


def main():
    store = redis.Redis(host="localhost", port=6379)
    store.delete("seen")
    for record in RECORDS:
        if not store.sadd("seen", fingerprint(record)):
            print("duplicate:", record)


if __name__ == "__main__":
    main()
