"""Password strength analyzer: reads one password per line on standard input."""
import math
import string
import sys

CLASSES = [string.ascii_lowercase, string.ascii_uppercase, string.digits, string.punctuation]


def entropy_bits(password):
    pool = sum(len(c) for c in CLASSES if any(ch in c for ch in password))
    return len(password) * math.log2(pool) if pool else 0.0


def verdict(bits):
    return "weak" if bits < 40 else "fair" if bits < 60 else "strong"


def main():
    lines = [line.rstrip("\n") for line in sys.stdin if line.strip()]
    if not lines:
        sys.exit("usage: give passwords on standard input, one per line")
    for password in lines:
        bits = entropy_bits(password)
        print(f"{'*' * len(password)}: {bits:.1f} bits, {verdict(bits)}")


if __name__ == "__main__":
    main()
