"""Render a :class:`Diagram` as inline SVG: a left-to-right layered layout, computed here."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conformance.reports._diagrams import Diagram

__all__ = ["render_svg"]

_CHAR_W = 7.2  # px per character at 12px monospace-ish sans
_NODE_H = 30
_GAP_X = 150
_GAP_Y = 28
_PAD = 16


def _layers(diagram: Diagram) -> dict[str, int]:
    """Longest-path layer of each node (edges must be acyclic; cycles are cut at depth n)."""
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


def render_svg(diagram: Diagram) -> str:
    """An ``<svg>`` element (no external references) drawing ``diagram``.

    Nodes are rounded boxes labelled with the enum values; edges are arrows with their labels.
    Element ids are prefixed with the diagram name, so several SVGs can share one HTML page.
    """
    layer = _layers(diagram)
    columns: dict[int, list[str]] = {}
    for node in diagram.nodes:
        columns.setdefault(layer[node], []).append(node)
    width_of = {n: max(60.0, len(n) * _CHAR_W + 20) for n in diagram.nodes}
    col_w = {c: max(width_of[n] for n in ns) for c, ns in columns.items()}
    x_of: dict[int, float] = {}
    x = float(_PAD)
    for col in sorted(columns):
        x_of[col] = x
        x += col_w[col] + _GAP_X
    tallest = max(len(ns) for ns in columns.values())
    height = _PAD * 2 + tallest * (_NODE_H + _GAP_Y)
    pos: dict[str, tuple[float, float]] = {}
    for col, nodes in columns.items():
        offset = (tallest - len(nodes)) * (_NODE_H + _GAP_Y) / 2
        for row, node in enumerate(nodes):
            pos[node] = (x_of[col], _PAD + offset + row * (_NODE_H + _GAP_Y))
    width = x - _GAP_X + _PAD
    marker = f"{diagram.name}-arrow"
    parts = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="diagram" id="{escape(diagram.name)}" '
            f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
            f'role="img" aria-label="{escape(diagram.title)}">'
        ),
        f"<title>{escape(diagram.title)}</title>",
        (
            f'<defs><marker id="{marker}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" '
            'markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
            'fill="#444"/></marker></defs>'
        ),
    ]
    for edge in diagram.edges:
        sx, sy = pos[edge.source]
        tx, ty = pos[edge.target]
        x1, y1 = sx + width_of[edge.source], sy + _NODE_H / 2
        x2, y2 = tx, ty + _NODE_H / 2
        if tx <= sx:  # same or earlier column: route below the boxes
            x1, x2 = sx + width_of[edge.source] / 2, tx + width_of[edge.target] / 2
            y1, y2 = sy + _NODE_H, ty + _NODE_H
        parts.append(
            f'<line class="edge" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            f'stroke="#444" marker-end="url(#{marker})"/>'
        )
        if edge.label:
            parts.append(
                f'<text class="edge-label" x="{(x1 + x2) / 2:.1f}" y="{(y1 + y2) / 2 - 4:.1f}" '
                f'text-anchor="middle" font-size="10" fill="#555">{escape(edge.label)}</text>'
            )
    for node in diagram.nodes:
        nx, ny = pos[node]
        parts.append(
            f'<g class="node" data-state="{escape(node)}"><rect x="{nx:.1f}" y="{ny:.1f}" '
            f'width="{width_of[node]:.1f}" height="{_NODE_H}" rx="6" fill="#eef3fb" '
            f'stroke="#36c"/><text x="{nx + width_of[node] / 2:.1f}" y="{ny + 19:.1f}" '
            f'text-anchor="middle" font-size="12">{escape(node)}</text></g>'
        )
    parts.append("</svg>")
    return "\n".join(parts)
