#!/bin/bash
set -euo pipefail
cd /opt/temporal-ui
mkdir -p config
text=$(cat config.yaml.tmpl)
for kv in FRONTEND="${TEMPORAL_FRONTEND:?}" BIND=0.0.0.0 PORT_UI=8080; do text=${text//@${kv%%=*}@/${kv#*=}}; done
printf '%s\n' "$text" > config/development.yaml
exec ./temporal-ui-server --root /opt/temporal-ui --config config --env development start
