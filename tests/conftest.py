import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_terminal_summary(terminalreporter):
    """Print the Mamba fuzzer's totals in every run that includes it, so CI output shows
    whether the safety net (the repetition stop, event ``cycle``) ever fired."""
    import json

    for report in terminalreporter.stats.get("passed", []) + terminalreporter.stats.get("failed", []):
        for key, value in getattr(report, "user_properties", ()):
            if key == "mamba_random_games":
                t = json.loads(value)
                terminalreporter.write_line(
                    f"Mamba random games: {t['games']} games ({t['finished']} finished), {t['actions']} actions, "
                    f"{t['checked_by_reference']} checked by the reference, {t['replayed_games']} replayed; "
                    f"safety net fired {t['cycle']} times")
