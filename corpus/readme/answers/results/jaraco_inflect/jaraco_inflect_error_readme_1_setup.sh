#!/bin/bash
python3 -m venv .venv
source .venv/bin/activate
pip install more_itertools 'typeguard>=4.0.1' pytest
