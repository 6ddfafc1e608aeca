"""A measured figure beside its target, and how a benchmark hands its figures to ``run_all.py``.

Every benchmark prints its figures as it goes (value, unit, target, OK or MISSED) and, when given
``--figures FILE``, also writes them as JSON so ``run_all.py`` can print one summary at the end.
A figure without a target is context (printed, never judged).
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterable, Literal

Goal = Literal["at least", "at most", "below"]


@dataclass(frozen=True)
class Figure:
    key: str                      # stable name, e.g. "kit.cards_per_second"
    label: str                    # what a person reads, e.g. "whole kit, cold"
    value: float
    unit: str
    target: float | None = None
    goal: Goal | None = None
    note: str = ""                # context, or why a target was missed

    @property
    def verdict(self) -> str:
        if self.target is None or self.goal is None:
            return ""
        if math.isnan(self.value):
            return "MISSED"
        met = {"at least": self.value >= self.target, "at most": self.value <= self.target,
               "below": self.value < self.target}[self.goal]
        return "OK" if met else "MISSED"

    def line(self) -> str:
        shown = f"{number(self.value)} {self.unit}".rstrip()
        text = f"  {self.label:<52} {shown:>16}"
        if self.verdict:
            sign = {"at least": "≥", "at most": "≤", "below": "<"}[self.goal or "at least"]
            text += f"   target {sign} {number(self.target or 0)} {self.unit}".rstrip() + f"   {self.verdict}"
        if self.note:
            text += f"   ({self.note})"
        return text


def number(value: float) -> str:
    """Enough digits to read, no more: 1,234 · 56.7 · 3.45 · 0.123."""
    if math.isnan(value):
        return "n/a"
    size = abs(value)
    if size >= 1000:
        return f"{value:,.0f}"
    if size >= 100:
        return f"{value:.0f}"
    if size >= 10:
        return f"{value:.1f}"
    if size >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


class Report:
    """Collects figures, prints each as it is added, and writes them all as JSON at the end."""

    def __init__(self, figures_file: Path | None = None) -> None:
        self.figures: list[Figure] = []
        self.figures_file = figures_file

    def heading(self, text: str) -> None:
        print(text, flush=True)

    def add(self, figure: Figure) -> Figure:
        self.figures.append(figure)
        print(figure.line(), flush=True)
        return figure

    def info(self, key: str, label: str, value: float, unit: str, note: str = "") -> Figure:
        return self.add(Figure(key, label, value, unit, note=note))

    def target(self, key: str, label: str, value: float, unit: str, goal: Goal, target: float,
               note: str = "") -> Figure:
        return self.add(Figure(key, label, value, unit, target, goal, note))

    def save(self) -> None:
        if self.figures_file is not None:
            self.figures_file.write_text(json.dumps([asdict(f) for f in self.figures], indent=1), encoding="utf-8")


def load(path: Path) -> list[Figure]:
    return [Figure(**item) for item in json.loads(path.read_text(encoding="utf-8"))]


def summary(figures: Iterable[Figure]) -> list[str]:
    """The judged figures, one line each, then the count of targets met."""
    judged = [f for f in figures if f.verdict]
    lines = [f.line() for f in judged]
    met = sum(1 for f in judged if f.verdict == "OK")
    lines.append(f"  {met} of {len(judged)} targets met")
    return lines
