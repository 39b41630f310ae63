#!/bin/bash
python3 -m venv /opt/bitstring-env
export PATH=/opt/bitstring-env/bin:$PATH
pip install 'bitarray>=2.9.0,<3.0.0' gfloat hypothesis numpy pytest
