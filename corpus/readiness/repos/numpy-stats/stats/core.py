import numpy as np


def summarize(signal: np.ndarray) -> dict:
    spectrum = np.abs(np.fft.rfft(signal))
    return {"mean": float(signal.mean()), "std": float(signal.std()), "peak_bin": int(spectrum.argmax())}
