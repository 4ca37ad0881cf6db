"""With a language active, Django writes numbers as it speaks them ("12,5" in German): the
coordinates of the site's SVG charts must stay as SVG reads them ("12.5")."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games.charts import line_chart
from games.kinds.hundred_and_ten import score_sheet

COORDINATES = re.compile(r'(?:x1|x2|y1|y2|cx|cy|y|x)="([^"]*)"')


@pytest.mark.parametrize("language", ["en", "de", "es", "ml"])
def test_a_line_chart_s_coordinates_are_written_with_a_dot(language):
    chart = line_chart([1500, 1512.25, 1498.5, 1530], "Rating")
    with translation.override(language):
        html = render_to_string("games/_chart.html", {"chart": chart})
    values = COORDINATES.findall(html)
    assert values and not any("," in value for value in values)
    assert any("." in value for value in values)


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_score_chart_s_lines_are_text(language):
    history: Any = tuple(
        SimpleNamespace(outcome="made", round_scores=scores) for scores in ((15, -20), (30, 5))
    )
    with translation.override(language):
        chart = score_sheet.chart(("Alice", "Bob"), history, 110)
    assert isinstance(chart["zero"], str) and isinstance(chart["target_y"], str)
    assert "," not in chart["zero"] + chart["target_y"]
