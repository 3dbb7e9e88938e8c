import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_terminal_summary(terminalreporter):
    """Print the Mamba fuzzer's totals in every run that includes it, so CI output shows
    whether the safety net (the repetition stop, event ``cycle``) ever fired; and the totals of
    the mutated states and replays (tests/test_state_loading.py)."""
    import json

    loading = {}
    for report in terminalreporter.stats.get("passed", []) + terminalreporter.stats.get("failed", []):
        for key, value in getattr(report, "user_properties", ()):
            if key == "state_loading":
                t = json.loads(value)
                kind = "states" if t["what"].endswith("states") else "replays"
                total = loading.setdefault(kind, {})
                for k, n in t.items():
                    if k != "what":
                        total[k] = total.get(k, 0) + n
            if key == "mamba_random_games":
                t = json.loads(value)
                terminalreporter.write_line(
                    f"Mamba random games: {t['games']} games ({t['finished']} finished), {t['actions']} actions, "
                    f"{t['checked_by_reference']} checked by the reference, {t['replayed_games']} replayed; "
                    f"safety net fired {t['cycle']} times")
    for kind, t in sorted(loading.items(), reverse=True):
        terminalreporter.write_line(
            f"Mutated {kind}: {t.get('tried', 0)} mutations tried ({t.get('blind', 0)} blind, "
            f"{t.get('plausible', 0)} plausible), {t.get('accepted', 0)} accepted, "
            f"{t.get('played_on', 0)} played on")
