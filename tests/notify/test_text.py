"""Player text shown as HTML: escaped, with safe clickable http(s) links."""

from __future__ import annotations

import pytest

from app.web.text import linkify

REL = 'rel="nofollow noopener noreferrer" target="_blank"'


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("plain", "plain"),
        ("<b>bold</b> & co", "&lt;b&gt;bold&lt;/b&gt; &amp; co"),
        ("two\nlines", "two<br>\nlines"),
        ("see https://example.org.", f'see <a href="https://example.org" {REL}>https://example.org</a>.'),
        (
            "(https://en.wikipedia.org/wiki/Nile_(river))",
            f'(<a href="https://en.wikipedia.org/wiki/Nile_(river)" {REL}>'
            "https://en.wikipedia.org/wiki/Nile_(river)</a>)",
        ),
        ("HTTP://EXAMPLE.ORG/x", f'<a href="HTTP://EXAMPLE.ORG/x" {REL}>HTTP://EXAMPLE.ORG/x</a>'),
        ("javascript:alert(1)", "javascript:alert(1)"),
        ("ftp://example.org/file", "ftp://example.org/file"),
        ("data:text/html,<script>", "data:text/html,&lt;script&gt;"),
        (
            'https://x.org/"onmouseover="alert(1)',
            f'<a href="https://x.org/" {REL}>https://x.org/</a>&#34;onmouseover=&#34;alert(1)',
        ),
        ("https://", "https://"),
    ],
)
def test_linkify(text: str, html: str) -> None:
    assert str(linkify(text)) == html
