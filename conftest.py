"""Settings for the whole test suite (here at the root, beside pyproject.toml)."""

from hypothesis import HealthCheck, settings

# The machine is small and shared: a property test is judged on what it finds, not on how
# fast each example runs.
settings.register_profile("freecell", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("freecell")
