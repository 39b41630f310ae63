#!/bin/bash
python -m pip install 'rstcheck-core>=1.1' 'typer>=0.4.1' pytest sphinx
