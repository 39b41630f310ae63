"""Markdown to HTML converter."""
import markdown

SOURCE = """# Notes

Some *emphasis*, a [link](https://example.org) and a list:

- one
- two
"""

if __name__ == "__main__":
    print(markdown.markdown(SOURCE))
