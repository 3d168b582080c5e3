"""The README's settings table names every server setting with its default, and a setting's
value is checked when it is read."""

import dataclasses
import re
from pathlib import Path

import pytest

from server.config import ENV_PREFIX, Settings

README = Path(__file__).resolve().parents[2] / "README.md"


def test_every_setting_is_in_the_readme_table_with_its_default():
    rows = dict(re.findall(r"^\| `(IRIDESCIA_\w+)` \| ([^|]*) \|", README.read_text(), re.M))
    defaults = Settings()
    for spec in dataclasses.fields(Settings):
        if spec.name == "extra":
            continue
        name = ENV_PREFIX + spec.name
        assert name in rows, f"{name} is missing from the README's settings table"
        assert rows[name].strip().strip("`") == str(getattr(defaults, spec.name)), name


def test_the_scheduler_budget_is_a_number_of_seconds():
    assert Settings.load(environ={"IRIDESCIA_SCHEDULER_BUDGET_SECONDS": "0.25"}) == Settings(
        SCHEDULER_BUDGET_SECONDS=0.25
    )
    with pytest.raises(ValueError, match="IRIDESCIA_SCHEDULER_BUDGET_SECONDS must be a number"):
        Settings.load(environ={"IRIDESCIA_SCHEDULER_BUDGET_SECONDS": "a second"})
