#!/usr/bin/env python3
"""Trunk post-build hook: adds a strict Content-Security-Policy <meta> tag.

GitHub Pages sends no headers, so the policy travels in the page itself. Scripts
may come only from the page's own origin, plus WebAssembly compilation and the
exact inline bootstrap Trunk writes (allowed by its SHA-256, computed here at
build time: no 'unsafe-inline', no fixed nonce).
"""
import base64
import hashlib
import os
import re
import sys

html_path = os.path.join(os.environ.get("TRUNK_STAGING_DIR", "dist"), "index.html")
with open(html_path, encoding="utf-8") as f:
    html = f.read()

inline = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", html, flags=re.S)
if not inline:
    sys.exit(f"csp.py: no inline bootstrap script found in {html_path}")
hashes = " ".join(
    "'sha256-%s'" % base64.b64encode(hashlib.sha256(s.encode("utf-8")).digest()).decode()
    for s in inline
)
policy = (
    "default-src 'self'; "
    f"script-src 'self' 'wasm-unsafe-eval' {hashes}; "
    "style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'none'"
)
meta = f'<meta http-equiv="Content-Security-Policy" content="{policy}" />'
html, n = re.subn(r"(<meta charset=[^>]*>)", lambda m: m.group(1) + meta, html, count=1)
if n != 1:
    sys.exit("csp.py: no <meta charset> to place the policy after")
with open(html_path, "w", encoding="utf-8") as f:
    f.write(html)
print(f"csp.py: policy with {len(inline)} script hash(es) written to {html_path}")
