"""HTTP file downloader with a progress line."""
import requests

URL = "https://downloads.example-data.org/datasets/sample.bin"


def download(url, target):
    with requests.get(url, stream=True, timeout=10) as response:
        response.raise_for_status()
        done = 0
        with open(target, "wb") as f:
            for chunk in response.iter_content(64 * 1024):
                f.write(chunk)
                done += len(chunk)
                print(f"\r{done} bytes", end="")
    print()


if __name__ == "__main__":
    download(URL, "sample.bin")
