"""HTTP REST client with retry logic."""
from requests import RetrySession  # no such class in requests: the agent misremembered the API


def main():
    session = RetrySession(retries=3, backoff_factor=0.5)
    response = session.get("https://httpbin.org/status/200")
    print(response.status_code)


if __name__ == "__main__":
    main()
