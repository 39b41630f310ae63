import argparse
import json

import numpy as np

from stats import summarize

parser = argparse.ArgumentParser()
parser.add_argument("--device", default="cpu")
args = parser.parse_args()
rng = np.random.default_rng(0)
t = np.arange(1024) / 1024
signal = np.sin(2 * np.pi * 50 * t) + 0.1 * rng.standard_normal(t.size)
print(json.dumps({"device": args.device, **summarize(signal)}))
