"""Image histogram analyzer: mean and peak of each channel of an image."""
import sys

from PIL import Image


def channel_stats(path):
    image = Image.open(path).convert("RGB")
    histogram = image.histogram()
    stats = {}
    for i, name in enumerate("RGB"):
        counts = histogram[i * 256:(i + 1) * 256]
        total = sum(counts)
        stats[name] = (sum(v * c for v, c in enumerate(counts)) / total, counts.index(max(counts)))
    return image.size, stats


if __name__ == "__main__":
    path = sys.argv[1] if len(sys.argv) > 1 else "assets/gradient.png"
    size, stats = channel_stats(path)
    print(f"{path}: {size[0]}x{size[1]}")
    for name, (mean, peak) in stats.items():
        print(f"  {name}: mean {mean:.1f}, peak {peak}")
