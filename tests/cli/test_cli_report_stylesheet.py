"""report.html's stylesheet fits the window (structural: no browser needed).

The browser measurements of the same report are ``test_cli_report_layout.py`` (Chromium).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

WINDOW = 1400


def test_the_stylesheet_has_no_fixed_width_and_scales_diagrams(report_html: Path) -> None:
    """No CSS width over 1,400 px; long cells wrap; SVG diagrams scale to the page."""
    page = report_html.read_text("utf-8")
    style = page.split("<style>", 1)[1].split("</style>", 1)[0]
    widths = [int(w) for w in re.findall(r"width:\s*(\d+)px", style)]
    assert all(w <= WINDOW for w in widths)
    assert re.search(r"svg\s*\{[^}]*max-width:\s*100%", style)
    assert re.search(r"td\s*\{[^}]*overflow-wrap:\s*anywhere", style)
    assert re.search(r"th, td\.short\s*\{[^}]*white-space:\s*nowrap", style)
    assert re.search(r"table\.results\s*\{[^}]*table-layout:\s*fixed", style)
    assert page.index('id="failures"') < page.index('id="compliance"')
    assert page.index('id="drill-down"') < page.index('id="traceability-matrix"')
