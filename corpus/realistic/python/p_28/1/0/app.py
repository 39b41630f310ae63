"""Static HTTP file server: serves ./public with directory listings."""
import os
from flask import Flask, abort, send_from_directory

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "public")
app = Flask(__name__)


@app.route("/")
def index():
    names = sorted(os.listdir(ROOT))
    items = "".join(f'<li><a href="/files/{n}">{n}</a></li>' for n in names)
    return f"<h1>Files</h1><ul>{items}</ul>"


@app.route("/files/<path:name>")
def files(name):
    if not os.path.isfile(os.path.join(ROOT, name)):
        abort(404)
    return send_from_directory(ROOT, name)


if __name__ == "__main__":
    port = int(os.environ.get("PORT", "8000"))
    print(f"Serving {ROOT} on port {port}", flush=True)
    app.run(host="0.0.0.0", port=port)
