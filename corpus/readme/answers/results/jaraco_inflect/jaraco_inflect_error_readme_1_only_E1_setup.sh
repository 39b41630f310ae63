#!/bin/bash
python3 -m venv .venv
source .venv/bin/activate
pip install inflection-envgap-no-such-package
