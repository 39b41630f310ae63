import argparse

import numpy as np
from tqdm import tqdm  # used on the default path, declared nowhere

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=1)
args = parser.parse_args()
rng = np.random.default_rng(0)
x = rng.standard_normal((256, 4))
w_true = np.array([1.0, -2.0, 0.5, 3.0])
y = x @ w_true
w = np.zeros(4)
for _ in tqdm(range(args.epochs * 100), desc="train"):
    grad = x.T @ (x @ w - y) / len(x)
    w -= 0.1 * grad
print("loss", float(np.mean((x @ w - y) ** 2)))
