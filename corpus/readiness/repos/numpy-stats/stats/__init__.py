from .core import summarize
