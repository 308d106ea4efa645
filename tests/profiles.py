"""Hypothesis profiles: `default` runs each property test as often as it asks, `quick` (for
`make quick`, HYPOTHESIS_PROFILE=quick) a tenth of that. tests/conftest.py loads the profile
before any test module is imported, so every `settings(...)` inherits from it."""

from __future__ import annotations

import os

from hypothesis import settings

DEFAULT_EXAMPLES = 100  # Hypothesis's own max_examples, which the default profile keeps
QUICK_EXAMPLES = 10
PROFILE_VARIABLE = "HYPOTHESIS_PROFILE"

settings.register_profile("quick", max_examples=QUICK_EXAMPLES)


def load() -> str:
    """Load the profile HYPOTHESIS_PROFILE names (`default` when unset); its name."""
    name = os.environ.get(PROFILE_VARIABLE) or "default"
    settings.load_profile(name)
    return name


def examples(wanted: int) -> int:
    """`wanted` examples under the default profile, scaled by the loaded profile's max_examples
    against the default's: a tenth of them (at least one) under `quick`."""
    scale = settings.default.max_examples / DEFAULT_EXAMPLES  # type: ignore[union-attr]
    return max(1, round(wanted * scale))
