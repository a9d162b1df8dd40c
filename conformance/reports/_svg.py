"""Render a :class:`Diagram` as inline SVG: a left-to-right layered layout, computed here.

Layers are longest paths from the sources; an edge to the next layer is a straight arrow, an
edge that skips layers (or goes back) is a curve bowing above the boxes so it never crosses one.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conformance.reports._diagrams import Diagram, Edge

__all__ = ["render_svg"]

_CHAR_W = 7.4  # px per character, 12 px monospace
_NODE_H = 30
_GAP_X = 170
_GAP_Y = 34
_PAD = 16
_BOW = 30  # px of height per skipped layer (and per curve from the same source)
_LABEL_CHAR_W = 6.2  # px per character, 10 px monospace
_FONT = 'font-family="monospace"'


@dataclass(frozen=True)
class _Box:
    x: float
    y: float
    w: float

    @property
    def right(self) -> tuple[float, float]:
        return self.x + self.w, self.y + _NODE_H / 2

    @property
    def left(self) -> tuple[float, float]:
        return self.x, self.y + _NODE_H / 2


def _layers(diagram: Diagram) -> dict[str, int]:
    """Longest-path layer of each node (cycles are cut after as many rounds as nodes)."""
    layer = dict.fromkeys(diagram.nodes, 0)
    for _ in range(len(diagram.nodes)):
        changed = False
        for edge in diagram.edges:
            if layer[edge.target] < layer[edge.source] + 1:
                layer[edge.target] = layer[edge.source] + 1
                changed = True
        if not changed:
            break
    return layer


def _gaps(diagram: Diagram, layer: dict[str, int]) -> dict[int, float]:
    """Horizontal gap after each column: wide enough for the labels of its straight edges."""
    gaps: dict[int, float] = {}
    for edge in diagram.edges:
        col = layer[edge.source]
        if layer[edge.target] == col + 1:
            need = len(edge.label) * _LABEL_CHAR_W + 40
            gaps[col] = max(gaps.get(col, _GAP_X), need)
    return gaps


def _boxes(diagram: Diagram, layer: dict[str, int], top: float) -> tuple[dict[str, _Box], float]:
    gaps = _gaps(diagram, layer)
    columns: dict[int, list[str]] = {}
    for node in diagram.nodes:
        columns.setdefault(layer[node], []).append(node)
    width = {n: max(60.0, len(n) * _CHAR_W + 24) for n in diagram.nodes}
    tallest = max(len(ns) for ns in columns.values())
    boxes: dict[str, _Box] = {}
    x = float(_PAD)
    for col in sorted(columns):
        nodes = columns[col]
        offset = (tallest - len(nodes)) * (_NODE_H + _GAP_Y) / 2
        for row, node in enumerate(nodes):
            boxes[node] = _Box(x, top + offset + row * (_NODE_H + _GAP_Y), width[node])
        x += max(width[n] for n in nodes) + gaps.get(col, _GAP_X)
    return boxes, x - gaps.get(max(columns), _GAP_X) + _PAD


def _edge(edge: Edge, boxes: dict[str, _Box], bow: float, marker: str, top: float) -> list[str]:
    (x1, y1), (x2, y2) = boxes[edge.source].right, boxes[edge.target].left
    if bow == 0:
        path = f"M{x1:.1f},{y1:.1f} L{x2:.1f},{y2:.1f}"
        lx, ly = (x1 + x2) / 2, (y1 + y2) / 2 - 5
    else:
        peak = top - bow / 0.75  # the apex then sits ``bow`` px above the top row
        controls = f"C{x1 + 60:.1f},{peak:.1f} {x2 - 60:.1f},{peak:.1f}"
        path = f"M{x1:.1f},{y1:.1f} {controls} {x2:.1f},{y2:.1f}"
        # the apex of this cubic (both control points at ``peak``) is 3/4 of the way up
        lx, ly = (x1 + x2) / 2, 0.75 * peak + 0.125 * (y1 + y2) - 3
    parts = [
        f'<path class="edge" d="{path}" fill="none" stroke="#555" marker-end="url(#{marker})"/>'
    ]
    if edge.label:
        parts.append(
            f'<text class="edge-label" x="{lx:.1f}" y="{ly:.1f}" text-anchor="middle" '
            f'font-size="10" {_FONT} fill="#444">{escape(edge.label)}</text>'
        )
    return parts


def render_svg(diagram: Diagram) -> str:
    """An ``<svg>`` element (no external references) drawing ``diagram``.

    Nodes are rounded boxes labelled with the enum values (``data-state`` holds the value);
    edges are arrows with their labels. Element ids are prefixed with the diagram name, so
    several SVGs can share one HTML page.
    """
    layer = _layers(diagram)
    bows: dict[Edge, float] = {}
    per_source: dict[str, int] = {}
    for edge in diagram.edges:
        span = layer[edge.target] - layer[edge.source]
        if span == 1:
            bows[edge] = 0.0
        else:
            per_source[edge.source] = per_source.get(edge.source, 0) + 1
            bows[edge] = _BOW * per_source[edge.source]
    top = _PAD + max(bows.values(), default=0.0) + 8
    boxes, width = _boxes(diagram, layer, top)
    top_row = min(b.y for b in boxes.values())
    height = max(b.y for b in boxes.values()) + _NODE_H + _PAD
    marker = f"{diagram.name}-arrow"
    parts = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="diagram" id="{escape(diagram.name)}" '
            f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
            f'role="img" aria-label="{escape(diagram.title)}">'
        ),
        f"<title>{escape(diagram.title)}</title>",
        (
            f'<defs><marker id="{marker}" viewBox="0 0 10 10" refX="10" refY="5" '
            'markerWidth="8" markerHeight="8" orient="auto-start-reverse">'
            '<path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>'
        ),
    ]
    for edge in diagram.edges:
        parts += _edge(edge, boxes, bows[edge], marker, top_row)
    for node in diagram.nodes:
        box = boxes[node]
        parts.append(
            f'<g class="node" data-state="{escape(node)}"><rect x="{box.x:.1f}" y="{box.y:.1f}" '
            f'width="{box.w:.1f}" height="{_NODE_H}" rx="6" fill="#eef3fb" stroke="#36c"/>'
            f'<text x="{box.x + box.w / 2:.1f}" y="{box.y + 19:.1f}" text-anchor="middle" '
            f'font-size="12" {_FONT}>{escape(node)}</text></g>'
        )
    parts.append("</svg>")
    return "\n".join(parts)
